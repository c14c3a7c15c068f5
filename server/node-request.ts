import { httpUrl } from '../core/http-url.js'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { fetchMethod, markSentMethod } from '../core/sent-method.js'
import { markSentHost } from '../core/sent-host.js'

/** Host and connection headers are the transport's; Fetch refuses some of them. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect'])

/**
 * Node's request as a Fetch `Request`: every header kept with its repeats, the body streamed
 * as it arrives (the core reads it, up to its limit), the method as sent even where Fetch cannot
 * carry it (core/sent-method.ts). When a body parser has read the body
 * already (`express.json()` mounted before the mock), its parsed value is sent again as JSON.
 */
export function toFetchRequest(req: IncomingMessage & { body?: unknown }): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1] as string)
  }
  const sent = req.method ?? 'GET'
  const method = fetchMethod(sent)
  const request = new Request(requestUrl(req), {
    method,
    headers,
    body: bodyOf(req, method),
    duplex: 'half',
  } as RequestInit)
  markSentMethod(request, sent)
  const host = usableHost(req)
  if (host) markSentHost(request, host)
  return request
}

function bodyOf(req: IncomingMessage & { body?: unknown }, method: string): RequestInit['body'] {
  if (method === 'GET' || method === 'HEAD') return undefined
  if (req.readableEnded && req.body !== undefined) return JSON.stringify(req.body)
  const declared = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  if (declared) return Readable.toWeb(req) as ReadableStream<Uint8Array>
  return method === 'POST' || method === 'PUT' ? new Uint8Array(0) : undefined
}

/**
 * The request's absolute URL: the Host header and the request target, as Starlette builds
 * `request.url`. Only the path and query route, so a Host that is not a plain `host[:port]`
 * (empty, `a b`, `a/b`, `[::1`) gives way to the address the request came in on, and an
 * absolute-form target (`GET http://other/v1/personas/`, as sent to a proxy) routes by its
 * path; neither may turn into a 500 or into another path.
 */
function requestUrl(req: IncomingMessage): string {
  let target = req.url ?? '/'
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  if (!target.startsWith('/')) {
    const absolute = httpUrl(target)
    target = absolute ? absolute.pathname + absolute.search : `/${target}`
  }
  const host = usableHost(req)
  if (host) return `${protocol}://${host}${target}`
  const address = req.socket.localAddress ?? '127.0.0.1'
  return `${protocol}://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}${target}`
}

/** The `Host` header, when a URL can be made of it (else the server's own address stands in, as uvicorn's). */
function usableHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host
  return host && !/[\s/?#@\\]/.test(host) && URL.canParse(`http://${host}/`) ? host : undefined
}
