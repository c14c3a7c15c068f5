import type { IncomingMessage, ServerResponse } from 'node:http'
import { httpError } from '../../fastapi/http/responses.js'
import { send } from '../middleware.js'
import { endToEnd, type Incoming } from './forward.js'
import { headerOf, VIOLATIONS_HEADER } from './judge.js'

/** A request body past the proxy's limit. */
export class TooLarge extends Error {}

/** The whole request body: the proxy holds it to journal and judge it, so it reads at most `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > limit) throw new TooLarge(`request body past ${limit} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * Writes the target's answer as it came: status line, end-to-end headers in their order and spelling (each
 * repeat kept), `content-length` as the target wrote it, the body bytes. With `violations`, the header naming
 * them is added, and exposed to a page the target grants CORS to (a script could not read it otherwise).
 */
export function writeIncoming(
  res: ServerResponse,
  incoming: Incoming,
  violations: string | undefined,
  method: string | undefined,
): void {
  if (res.destroyed) return
  // In the target's order and spelling, its content-length in its place; one written only where it sent none.
  const headers = endToEnd(incoming.rawHeaders, true)
  const bodiless = method === 'HEAD' || incoming.status === 204 || incoming.status === 304
  if (headerOf(incoming.rawHeaders, 'content-length') === undefined && !bodiless)
    headers.push('content-length', String(incoming.body.byteLength))
  if (violations !== undefined) {
    headers.push(VIOLATIONS_HEADER, violations)
    if (incoming.headers['access-control-allow-origin'] !== undefined) exposeViolations(headers)
  }
  res.writeHead(incoming.status, incoming.statusMessage, headers)
  res.end(bodiless ? undefined : incoming.body)
}

function exposeViolations(headers: string[]): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== 'access-control-expose-headers') continue
    if (headers[i + 1]!.trim() !== '*') headers[i + 1] = `${headers[i + 1]}, ${VIOLATIONS_HEADER}`
    return
  }
  headers.push('access-control-expose-headers', VIOLATIONS_HEADER)
}

/** A target that cannot be reached answers 502, saying so: the client sees which side failed. */
export const unreachable = (target: URL, error: Error): Incoming =>
  proxyAnswer(502, 'Bad Gateway', `The proxy could not reach the target ${target.origin}: ${error.message}`)

/** A target whose answer the proxy cannot hold answers 502, saying so. */
export const tooLargeAnswer = (error: Error): Incoming =>
  proxyAnswer(502, 'Bad Gateway', `The proxy refused the target's answer: ${error.message}.`)

/** A target too slow answers 504, naming the bound and the option that sets it. */
export const timedOut = (error: Error): Incoming =>
  proxyAnswer(
    504,
    'Gateway Timeout',
    `The target took too long: ${error.message} (--connect-timeout and --answer-timeout set the bounds).`,
  )

/** A request whose client went away: nothing is sent, the journal keeps it as 499 (nginx's "client closed"). */
export const clientGone = (): Incoming => proxyAnswer(499, 'Client Closed Request', 'The client went away.')

function proxyAnswer(status: number, statusMessage: string, detail: string): Incoming {
  const body = Buffer.from(JSON.stringify({ detail }))
  const rawHeaders = ['content-type', 'application/json', 'content-length', String(body.byteLength)]
  return { status, statusMessage, rawHeaders, headers: { 'content-type': 'application/json' }, fromProxy: true, body }
}

export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  return headers
}

/** Express's error handler: a client gone mid-request, or a bug; a JSON 500 when nothing was sent yet (no HTML). */
export function answerError(_error: unknown, _req: IncomingMessage, res: ServerResponse, _next: () => void): void {
  if (res.headersSent) res.destroy()
  else void send(res, httpError(500, 'Internal Server Error'), 'GET')
}
