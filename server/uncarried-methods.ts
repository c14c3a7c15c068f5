import { IncomingMessage, type Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Express } from 'express'
import { isMethodToken } from '../core/sent-method.js'

/**
 * Requests Node's HTTP server does not hand to the app, answered by the app as uvicorn hands every
 * method to Starlette (405 with `allow`, the trailing-slash 307, or 404, as JSON):
 * - `CONNECT` comes as a `connect` event with the bare socket, which Node would otherwise close;
 * - a method Node's parser does not know (`FOOBAR`, `get`) comes as a `clientError`
 *   (`HPE_INVALID_METHOD`) with the bytes of the request's head, where Node would answer a bare 400.
 * Other bytes Node cannot read as a request get uvicorn's own 400, `Invalid HTTP request received.`, and so does
 * a request line without a version, which Node reads as HTTP/0.9 and h11 does not read: the app is handed the
 * server's requests here, once they are ones uvicorn would read.
 * Either way the connection closes after the answer: Node's parser is done with that socket. And a request
 * whose `Expect` is not `100-continue` comes as `checkExpectation`, where Node would answer 417: uvicorn
 * ignores such an expectation, so the app answers it as any other request.
 * Bytes Node cannot read that come while a request of the same connection is being answered (a
 * GET's body sent with neither a length nor chunks) get no answer of their own: the one under way
 * is finished, then the connection closed. Bytes it cannot read in the body of the request under way
 * (a malformed chunk) are refused with 400 at once, as uvicorn refuses them, and the connection closed.
 */
export function answerUncarriedMethods(server: Server, app: Express): void {
  const answering = new WeakMap<Socket, ServerResponse>()
  // Sockets answered detached: Node's parser stays failed on them, and every later chunk is another clientError.
  const detached = new WeakSet<Socket>()
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request line without a version is HTTP/0.9 to Node's parser, and no request to h11.
    if (req.httpVersionMajor < 1) return refuse(new Error('HTTP/0.9'), req.socket)
    answering.set(req.socket, res)
    res.once('finish', () => answering.get(req.socket) === res && answering.delete(req.socket))
    app(req, res)
  })
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res))
  const answerOnce = (req: IncomingMessage, socket: Socket) => {
    detached.add(socket)
    answerDetached(app, req, socket)
  }
  server.on('connect', answerOnce)
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // The connection closes once its one detached answer is sent: what comes after it gets none.
    if (detached.has(socket)) return
    const underWay = answering.get(socket)
    // A body Node cannot read (a malformed chunk) never ends: the answer waiting for it would wait for ever.
    if (underWay && !underWay.headersSent && !underWay.req.complete) return refuse(error, socket, underWay.req)
    if (underWay) return closeAfter(underWay, socket)
    const req = error.code === 'HPE_INVALID_METHOD' && error.rawPacket ? requestOf(error.rawPacket, socket) : undefined
    if (req) answerOnce(req, socket)
    else refuse(error, socket)
  })
}

/** Closes the connection once the answer under way on it is sent (with `connection: close` if not begun). */
function closeAfter(res: ServerResponse, socket: Socket): void {
  if (!res.headersSent) res.shouldKeepAlive = false
  res.once('finish', () => socket.end())
  res.once('close', () => socket.end())
}

/** The app's answer on a socket that Node's server no longer reads, which then closes. */
function answerDetached(app: Express, req: IncomingMessage, socket: Socket): void {
  // An authority-form target (`CONNECT host:port`) is no path Express routes: uvicorn hands it to Starlette as
  // the path, which no route matches, as `/host:port` matches none.
  if (!req.url?.startsWith('/') && !/^https?:\/\//i.test(req.url ?? '')) req.url = `/${req.url ?? ''}`
  const res = new ServerResponse(req)
  res.shouldKeepAlive = false
  res.assignSocket(socket)
  res.once('finish', () => socket.end())
  socket.once('error', () => socket.destroy())
  app(req, res)
}

/**
 * The request a head of bytes holds (request line and header fields, no body), or undefined when it
 * is not one a server would read: no complete head, a method or a field name that is not an HTTP token, or a
 * field value holding a control character (Node's parser refuses each with 400, as it does for any method).
 */
function requestOf(packet: Buffer, socket: Socket): IncomingMessage | undefined {
  const text = packet.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [line = '', ...fields] = text.slice(0, end).split('\r\n')
  const parts = /^(\S+) (\S+) HTTP\/1\.[01]$/.exec(line)
  if (!parts || !isMethodToken(parts[1] as string)) return undefined
  const req = new IncomingMessage(socket)
  req.method = parts[1] as string
  req.url = parts[2] as string
  for (const field of fields) {
    const colon = field.indexOf(':')
    if (colon <= 0) return undefined
    const name = field.slice(0, colon)
    const value = field.slice(colon + 1).trim()
    if (!isMethodToken(name) || !FIELD_VALUE.test(value)) return undefined
    req.rawHeaders.push(name, value)
    const key = name.toLowerCase()
    req.headers[key] = req.headers[key] === undefined ? value : `${req.headers[key]}, ${value}`
  }
  // The body, if any, is not read (the connection closes after the answer): the app sees a request without one.
  for (const framing of ['content-length', 'transfer-encoding']) delete req.headers[framing]
  req.push(null)
  return req
}

/** A header field's value (RFC 9110 field-value, read as latin1): no control character but tab. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/** Node's own answers to a request it cannot read, which a `clientError` listener takes over (node:_http_server). */
const NODE_REFUSALS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
}

/** What uvicorn (h11) says of bytes it cannot read as HTTP. */
const UVICORN_REFUSAL = 'Invalid HTTP request received.'

/**
 * uvicorn's 400 for bytes h11 cannot read, as h11 frames it: for a head it could not read (no HTTP version known)
 * the body ends with the connection, and h11 writes the `Connection` field it sets in title case; for the body of
 * an HTTP/1.1 request under way, the body goes in chunks. Node's own refusals are kept for its limits (a head past
 * its maximum, a request too slow), which uvicorn does not share ([decisions.md](../docs/decisions.md)).
 */
function refusal(error: NodeJS.ErrnoException, underWay: IncomingMessage | undefined): string {
  const status = NODE_REFUSALS[error.code ?? '']
  if (status) return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`
  const head = 'HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n'
  if (underWay?.httpVersion !== '1.1') return `${head}Connection: close\r\n\r\n${UVICORN_REFUSAL}`
  const chunk = `${UVICORN_REFUSAL.length.toString(16)}\r\n${UVICORN_REFUSAL}\r\n0\r\n\r\n`
  return `${head}connection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`
}

/**
 * The refusal, then the socket closes. Nothing of an answer is on the wire: the callers refuse only between
 * answers, or while the answer under way has not begun (an answer leaves `answering` once all of it is written).
 */
function refuse(error: NodeJS.ErrnoException, socket: Socket, underWay?: IncomingMessage): void {
  if (socket.writable) socket.write(refusal(error, underWay))
  socket.destroy(error)
}
