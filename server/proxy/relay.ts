import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JournalRecord } from '../../core/journal/journal.js'
import { httpError } from '../../fastapi/http/responses.js'
import { send } from '../middleware.js'
import {
  ClientGone,
  endToEnd,
  forward,
  type ForwardTimeouts,
  type Incoming,
  type Outgoing,
  TargetTimeout,
  TargetTooLarge,
  targetUrl,
} from './forward.js'
import { clientGone, headersOf, readBody, timedOut, TooLarge, tooLargeAnswer, unreachable } from './io.js'

/** One request relayed to a target: what was sent, what came back (or the proxy's own 499/502/504), and when. */
export interface Relayed {
  outgoing: Outgoing
  incoming: Incoming
  /** `Date.now()` when the request arrived. */
  started: number
}

export interface RelayOptions {
  timeouts: ForwardTimeouts
  /** Bytes of a request body read at most (it is held whole); past it the client gets 413 and nothing is sent. */
  maxBodyBytes: number
}

/**
 * Reads a request and sends it on to `targetOrigin` (the proxy mode and `--forward` alike), aborting it when the
 * client goes away: nothing is left open towards the target for a request nobody waits for. The answer is not
 * written: the caller does (after judging it, for the proxy).
 * @returns undefined when the request was answered already (413)
 */
export async function relay(
  req: IncomingMessage,
  res: ServerResponse,
  targetOrigin: URL,
  target: string,
  options: RelayOptions,
): Promise<Relayed | undefined> {
  const started = Date.now()
  let outgoing: Outgoing
  try {
    outgoing = {
      method: req.method ?? 'GET',
      target,
      rawHeaders: req.rawHeaders,
      body: await readBody(req, options.maxBodyBytes),
    }
  } catch (error) {
    if (error instanceof TooLarge) return void (await send(res, httpError(413, 'Request body too large'), req.method))
    throw error
  }
  const abandoned = new AbortController()
  res.once('close', () => abandoned.abort())
  const incoming = await forward(targetOrigin, outgoing, options.timeouts, abandoned.signal).catch((error: Error) => {
    if (error instanceof ClientGone) return clientGone()
    if (error instanceof TargetTimeout) return timedOut(error)
    if (error instanceof TargetTooLarge) return tooLargeAnswer(error)
    return unreachable(targetOrigin, error)
  })
  return { outgoing, incoming, started }
}

/** The journal's record of a relayed exchange, with the target's URL. */
export const relayedRecord = (targetOrigin: URL, { outgoing, incoming, started }: Relayed): JournalRecord => ({
  time: new Date(started).toISOString(),
  method: outgoing.method,
  url: targetUrl(targetOrigin, outgoing.target),
  status: incoming.status,
  duration_ms: Date.now() - started,
  requestHeaders: headersOf(endToEnd(outgoing.rawHeaders)),
  requestBody: outgoing.body.byteLength ? outgoing.body : undefined,
  responseHeaders: headersOf(incoming.rawHeaders),
  responseBytes: incoming.body.byteLength,
})
