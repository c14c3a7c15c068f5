import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { httpError, writtenBody } from '../handlers/fastapi/responses.js'
import { fromHost, urlOf } from '../handlers/match.js'

export interface AdapterOptions {
  /** The handlers to answer with, read on every request (so overrides apply at once). */
  handlers: () => readonly RequestHandler[]
  /** Bodies over this many bytes answer 413 without being read further. */
  maxBodyBytes: number
  /** Called after every answer has been written. */
  afterResponse: () => void
  /** Called with every exception a handler throws (the client gets a JSON 500). */
  onError: (error: unknown, request: IncomingMessage) => void
}

/**
 * Express middleware that answers with msw request handlers through `getResponse`, so the
 * standalone server runs exactly the handlers the browser and Node tests run. The body is
 * read raw (invalid JSON reaches the handlers as sent), headers keep their repeats,
 * `HttpResponse.error()` closes the socket, and an exception becomes a JSON 500.
 */
export function mswAdapter({ handlers, maxBodyBytes, afterResponse, onError }: AdapterOptions) {
  return async (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    try {
      const body = await readBody(req, maxBodyBytes)
      if (body === TOO_LARGE) return send(res, httpError(413, 'Request body too large'), req.method)
      const request = toFetchRequest(req, body)
      fromHost(request)
      const response = await getResponse([...handlers()], request, { baseUrl: urlOf(request).origin })
      if (!response || response.headers.get('x-msw-intention') === 'passthrough') return next()
      if (response.type === 'error') return void res.destroy()
      await send(res, response, req.method)
    } catch (error) {
      onError(error, req)
      if (!res.headersSent) await send(res, httpError(500, 'Internal Server Error'), req.method)
      else res.destroy()
    }
    afterResponse()
  }
}

const TOO_LARGE = Symbol('too large')

/** The raw body, up to the limit; past it, stops reading and reports TOO_LARGE. */
async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined | typeof TOO_LARGE> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined
  const declared = Number(req.headers['content-length'])
  if (declared > limit) return TOO_LARGE
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > limit) return TOO_LARGE
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** Host and connection headers are the transport's; Fetch refuses some of them. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect'])

function toFetchRequest(req: IncomingMessage, body: Uint8Array<ArrayBuffer> | undefined): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1] as string)
  }
  return new Request(requestUrl(req), { method: req.method, headers, body: body?.byteLength || req.method === 'POST' || req.method === 'PUT' ? body : undefined })
}

/**
 * The request's absolute URL: the Host header and the request target, as Starlette builds
 * `request.url`. Only the path and query route, so a Host that is not a plain `host[:port]`
 * (empty, `a b`, `a/b`, `[::1`) gives way to the address the request came in on, and an
 * absolute-form target (`GET http://other/v1/personas/`, as sent to a proxy) routes by its
 * path; neither may turn into a 500 or into another path.
 */
function requestUrl(req: IncomingMessage): string {
  // Only what Node's own request has, so the adapter also runs outside Express.
  let target = req.url ?? '/'
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  if (!target.startsWith('/')) {
    const absolute = URL.canParse(target) ? new URL(target) : undefined
    target = absolute && /^https?:$/.test(absolute.protocol) ? absolute.pathname + absolute.search : `/${target}`
  }
  const host = req.headers.host
  if (host && !/[\s/?#@\\]/.test(host) && URL.canParse(`${protocol}://${host}${target}`)) return `${protocol}://${host}${target}`
  const address = req.socket.localAddress ?? '127.0.0.1'
  return `${protocol}://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}${target}`
}

/** Writes a Fetch response to Node's response: status, every header (repeated Set-Cookie kept), body. */
export async function send(res: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value)
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader('set-cookie', cookies)
  const body = writtenBody(response) ?? new Uint8Array(await response.arrayBuffer())
  if (method === 'HEAD' || body.byteLength === 0) res.end()
  else res.end(body)
}
