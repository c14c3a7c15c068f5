import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { judgeExchange, type JudgeOptions, type Violation } from '../../verify/judge/index.js'
import { isJsonContentType } from '../../fastapi/http/body.js'
import type { Incoming, Outgoing } from './forward.js'

/** The response header that names the checks an answer broke. */
export const VIOLATIONS_HEADER = 'x-contract-violations'

/** One answer that broke the contract, as `GET /__mock/violations` lists it. */
export interface ViolationEntry {
  /** The journal entry of the exchange. */
  seq: number
  method: string
  path: string
  query: string
  status: number
  violations: Violation[]
}

/** Violations kept at most: the oldest go first, so a long session's memory stays bounded. */
const KEPT = 500

/** The answers that broke the contract, newest last. */
export class ViolationLog {
  #entries: ViolationEntry[] = []

  add(entry: ViolationEntry): void {
    this.#entries.push(entry)
    if (this.#entries.length > KEPT) this.#entries.splice(0, this.#entries.length - KEPT)
  }

  list(): ViolationEntry[] {
    return [...this.#entries]
  }

  clear(): void {
    this.#entries = []
  }
}

/** Judges one forwarded exchange: the bodies read as JSON where they are JSON (a compressed answer decoded first). */
export function judgeForwarded(outgoing: Outgoing, incoming: Incoming, options: JudgeOptions): Violation[] {
  const [path = '', query = ''] = splitTarget(outgoing.target)
  const requestType = headerOf(outgoing.rawHeaders, 'content-type')
  const contentType = incoming.headers['content-type'] ?? null
  return judgeExchange(
    {
      method: outgoing.method,
      path,
      query,
      requestBody: jsonOf(outgoing.body, requestType, headerOf(outgoing.rawHeaders, 'content-encoding')),
      status: incoming.status,
      responseBody: jsonOf(incoming.body, contentType, incoming.headers['content-encoding']),
      contentType,
    },
    options,
  )
}

/**
 * The header's value: the checks broken, each once, comma-separated (check ids are ASCII, so any client reads
 * it); the messages are at `GET /__mock/violations`.
 * @example summary([{ check: 'paging.total', message: '…' }]) // 'paging.total'
 */
export const summary = (violations: readonly Violation[]): string =>
  [...new Set(violations.map((violation) => violation.check))].join(', ')

/** Path and query of a request target (an absolute-form target, as sent to a forward proxy, read by its path). */
export function splitTarget(target: string): [string, string] {
  const relative = target.startsWith('/')
    ? target
    : URL.canParse(target)
      ? new URL(target).pathname + new URL(target).search
      : `/${target}`
  const at = relative.indexOf('?')
  return at === -1 ? [relative, ''] : [relative.slice(0, at), relative.slice(at + 1)]
}

/** A request header's first value, from raw headers. */
export function headerOf(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1]
  return undefined
}

function jsonOf(body: Buffer, type: string | null | undefined, encoding: string | undefined): unknown {
  if (!type || !isJsonContentType(type) || body.byteLength === 0) return undefined
  try {
    return JSON.parse(decoded(body, encoding?.trim().toLowerCase()).toString('utf8'))
  } catch {
    // Not JSON after all (or an encoding the proxy cannot read): the judge says what it expected.
    return undefined
  }
}

/** The answer's body with its content-encoding undone (as it came when it cannot be). */
export function decodedBody(incoming: Incoming): Buffer {
  try {
    return decoded(incoming.body, incoming.headers['content-encoding']?.trim().toLowerCase())
  } catch {
    return incoming.body
  }
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body)
  if (encoding === 'deflate') return inflateSync(body)
  if (encoding === 'br') return brotliDecompressSync(body)
  return body
}
