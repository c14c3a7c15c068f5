import type { Outcome } from '../../fastapi/http/reply.js'
import { answer, httpError } from '../../fastapi/http/responses.js'
import { streamingJsonResponse } from '../../fastapi/http/streaming-response.js'
import { stateStream } from '../../model/state/stream.js'
import type { WorldCall } from './route.js'

/** How many exports one core streams at once, and how long one may go unread (docs/reliability.md). */
export interface ExportLimits {
  /** Exports being streamed at once; one more answers 503. */
  inFlight: number
  /** An export whose reader asks for nothing for this long is dropped (its connection closed). */
  idleMs: number
}

export const EXPORT_LIMITS: ExportLimits = { inFlight: 4, idleMs: 60_000 }

/**
 * `GET /__mock/state`: the whole world as a state file's JSON, streamed from a snapshot taken
 * when the request arrives (model/state/stream.ts), byte for byte what `exportState()` writes.
 * At most `limits.inFlight` exports are streamed at once (each holds a snapshot of its world
 * until it is read to the end, closed, or dropped for being idle); one more answers 503.
 * `HEAD` answers the headers alone, without taking a snapshot.
 * @example { method: 'GET', path: '/state', answer: stateExport() }
 */
export function stateExport(limits: ExportLimits = EXPORT_LIMITS) {
  let inFlight = 0
  return ({ request, instance }: WorldCall): Outcome => {
    if (request.method === 'HEAD') return answer(null, 200, { 'content-type': 'application/json' })
    if (inFlight >= limits.inFlight) {
      throw httpError(
        503,
        `${limits.inFlight} exports of the state are being read already: read one to the end or close it, then ask again.`,
      )
    }
    inFlight++
    const { world } = instance
    const state = { ...instance.worldOptions, contents: world.contents(), documented: world.documentedContents }
    return streamingJsonResponse(200, stateStream(state, { idleMs: limits.idleMs, onEnd: () => void inFlight-- }))
  }
}
