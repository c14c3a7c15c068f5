import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { DEFAULT_FORWARD_TIMEOUTS, type ForwardTimeouts } from '../../core/forward-routes.js'
import { CONNECTION_HEADERS } from '../../core/connection-headers.js'

export { DEFAULT_FORWARD_TIMEOUTS, type ForwardTimeouts }

/** What the proxy sends on: the client's request as it came, for the target's origin. */
export interface Outgoing {
  method: string
  /** Path and query, as the client wrote them. */
  target: string
  /** The client's raw headers (name, value, name, value, ...), as Node read them. */
  rawHeaders: readonly string[]
  body: Buffer
}

/** The target's answer, untouched: its status line, raw headers and body bytes. */
export interface Incoming {
  status: number
  statusMessage: string
  rawHeaders: string[]
  headers: IncomingHttpHeaders
  body: Buffer
  /** The proxy's own answer (the target could not be reached), not the server's. */
  fromProxy?: true
}

/** Where a request goes: the target's origin, under the target's path if it has one (`https://host/api`). */
export const targetUrl = (base: URL, target: string): URL =>
  new URL(`${base.pathname.replace(/\/+$/, '')}${target}`, base.origin)

/**
 * Headers of one connection (RFC 9110 §7.6.1), never sent on; `host` is the target's own. Content-length is
 * written again from the bytes sent.
 */
const HOP_BY_HOP = new Set([
  ...CONNECTION_HEADERS,
  'proxy-authenticate',
  'proxy-authorization',
  'host',
  'content-length',
])

/**
 * Raw headers without the hop-by-hop ones, nor those the `Connection` header names; `content-length` is kept
 * in its place with `keepLength` (an answer handed on), else left out (a request, whose length is written again).
 */
export function endToEnd(rawHeaders: readonly string[], keepLength = false): string[] {
  const named = new Set<string>()
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'connection')
      for (const name of rawHeaders[i + 1]!.split(',')) named.add(name.trim().toLowerCase())
  const kept: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    const dropped = (HOP_BY_HOP.has(name) && !(keepLength && name === 'content-length')) || named.has(name)
    if (!dropped) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  return kept
}

/** The target took longer than a {@link ForwardTimeouts} bound: the proxy answers 504 with this message. */
export class TargetTimeout extends Error {}

/** The client went away before the answer came: the request to the target was aborted. */
export class ClientGone extends Error {}

/**
 * Bytes of a target's answer the proxy holds at most (256 MiB): it keeps an answer whole to journal and judge it
 * before handing it on, so a larger one would take the machine's memory. Past it the proxy answers 502.
 */
export const MAX_FORWARDED_BYTES = 256 * 1024 * 1024

/** The target's answer passed {@link MAX_FORWARDED_BYTES}: the proxy answers 502 with this message. */
export class TargetTooLarge extends Error {}

/**
 * Sends the request to the target with node:http(s) rather than fetch: fetch would decode a compressed
 * answer (and keep its `content-encoding`) and refuse some headers, and the proxy must hand the bytes on as
 * they came. Redirects are not followed: the client gets the 307 as the server wrote it. The outgoing request
 * is destroyed (its socket closed) when a timeout passes or `signal` aborts, so nothing is left open towards
 * the target for a request nobody waits for.
 * @throws TargetTimeout past a timeout, ClientGone when `signal` aborts, TargetTooLarge past `maxBytes`, or the
 *   connection's error
 */
export function forward(
  targetOrigin: URL,
  outgoing: Outgoing,
  timeouts: ForwardTimeouts = DEFAULT_FORWARD_TIMEOUTS,
  signal?: AbortSignal,
  maxBytes = MAX_FORWARDED_BYTES,
): Promise<Incoming> {
  const url = targetUrl(targetOrigin, outgoing.target)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  const headers = endToEnd(outgoing.rawHeaders)
  headers.push('Host', url.host)
  if (outgoing.body.byteLength > 0 || !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(outgoing.method))
    headers.push('Content-Length', String(outgoing.body.byteLength))
  return new Promise((resolve, reject) => {
    const request = send(url, { method: outgoing.method, headers }, (response) => {
      const chunks: Buffer[] = []
      let bytes = 0
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength
        if (bytes <= maxBytes) return void chunks.push(chunk)
        chunks.length = 0
        fail(new TargetTooLarge(`${url.origin} answered more than ${maxBytes} bytes, more than the proxy holds`))
      })
      response.on('error', fail)
      response.on('end', () => {
        settle()
        resolve({
          status: response.statusCode ?? 502,
          statusMessage: response.statusMessage ?? '',
          rawHeaders: response.rawHeaders,
          headers: response.headers,
          body: Buffer.concat(chunks),
        })
      })
    })
    let timer = setTimeout(
      () => fail(new TargetTimeout(`could not connect to ${url.origin} within ${timeouts.connectTimeoutMs} ms`)),
      timeouts.connectTimeoutMs,
    )
    const gone = () => fail(new ClientGone('the client went away'))
    function settle() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', gone)
    }
    function fail(error: Error) {
      settle()
      reject(error)
      request.destroy()
    }
    const connected = () => {
      clearTimeout(timer)
      timer = setTimeout(
        () => fail(new TargetTimeout(`${url.origin} did not answer within ${timeouts.answerTimeoutMs} ms`)),
        timeouts.answerTimeoutMs,
      )
    }
    // A socket kept alive from an earlier request is connected already.
    request.on('socket', (socket) => (socket.connecting ? socket.once('connect', connected) : connected()))
    request.on('error', fail)
    if (signal?.aborted) return gone()
    signal?.addEventListener('abort', gone, { once: true })
    request.end(outgoing.body)
  })
}
