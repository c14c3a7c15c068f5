import { IncomingMessage, type Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Express } from 'express'
import { isMethodToken } from '../core/sent-method.js'
import { ConnectionState } from './connection-state.js'
import { refusalBytes, unreadByH11 } from './h11-refusal.js'

/** The most bytes of a head kept while its end has not come: Node's own bound on a head (server/start.ts). */
const MAX_HEAD_BYTES = 256 * 1024

/**
 * Hands the app the server's requests as uvicorn hands them to Starlette, including those Node's HTTP server does not
 * hand on, answered as Starlette's router answers any method (405 with `allow`, the trailing-slash 307, or 404):
 * - `CONNECT` comes as a `connect` event with the bare socket, which Node would otherwise close;
 * - a method Node's parser does not know (`FOOBAR`, `get`) comes as a `clientError` (`HPE_INVALID_METHOD`) with the
 *   first bytes of the request's head; the rest of the head is read as it comes (a slow client's head comes in
 *   several pieces).
 * Either way the connection closes after that answer: Node's parser is done with the socket. A request whose
 * `Expect` is not `100-continue` comes as `checkExpectation`, where Node would answer 417: uvicorn ignores such an
 * expectation, so the app answers it as any other request.
 *
 * What h11 cannot read gets uvicorn's own 400, `Invalid HTTP request received.` (h11-refusal.ts): bytes Node's
 * parser fails on, a body it cannot read (a malformed chunk), a request line without a version (HTTP/0.9 to Node),
 * an HTTP/1.1 request without `Host` or with two. As uvicorn does, the answers to the requests read before them on
 * the connection go out first, whole; then the 400, and the connection closes. An HTTP/1.0 request's connection
 * closes after its answer (h11 keeps none open).
 */
export function answerUncarriedMethods(server: Server, app: Express): void {
  const connections = new WeakMap<Socket, ConnectionState>()
  const stateOf = (socket: Socket) => {
    let state = connections.get(socket)
    if (!state) connections.set(socket, (state = new ConnectionState()))
    return state
  }
  const refuse = (socket: Socket, code?: string) => {
    const state = stateOf(socket)
    state.closeWith(() => {
      if (socket.writable) socket.write(refusalBytes(code, state.version))
      socket.destroy()
    })
  }
  const answerAlone = (req: IncomingMessage, socket: Socket) =>
    stateOf(socket).closeWith(() => answerDetached(app, req, socket))

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = stateOf(req.socket)
    if (state.closing) return
    if (unreadByH11(req)) return refuse(req.socket)
    state.version = req.httpVersion
    if (req.httpVersion === '1.0') res.shouldKeepAlive = false
    state.track(res)
    app(req, res)
  })
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res))
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    if (stateOf(socket).closing) return
    if (unreadByH11(req)) return refuse(socket)
    answerAlone(req, socket)
  })
  server.on('clientError', (error: ParseError, socket: Socket) => {
    const state = stateOf(socket)
    if (state.closing) return
    const reading = state.reading
    if (reading) {
      // A body Node cannot read (a malformed chunk) never ends: its answer would wait for ever. One already begun
      // is finished, and the connection closed.
      if (reading.headersSent) return state.closeWith(() => socket.end())
      state.forget(reading)
      return refuse(socket, error.code)
    }
    const head = headSoFar(state, error)
    if (head === 'waiting') return
    const req = head && requestOf(head, socket)
    if (req) answerAlone(req, socket)
    else refuse(socket, head === undefined ? error.code : undefined)
  })
}

/**
 * The head of a request Node's parser failed on for its method, once whole: 'waiting' while its end has not come
 * (its later pieces come as further `clientError`s); undefined when the failure was no unknown method, or the head
 * grew past {@link MAX_HEAD_BYTES} without ending.
 */
function headSoFar(state: ConnectionState, error: ParseError): Buffer | 'waiting' | undefined {
  if (!error.rawPacket || (state.partialHead === undefined && error.code !== 'HPE_INVALID_METHOD')) return undefined
  const head = state.partialHead
    ? Buffer.concat([state.partialHead, error.rawPacket])
    : failedRequest(error.rawPacket, error)
  state.partialHead = undefined
  if (head.includes('\r\n\r\n')) return head
  if (head.byteLength > MAX_HEAD_BYTES) return undefined
  state.partialHead = head
  return 'waiting'
}

/** A parse error of Node's HTTP server: the data it was reading, and how far into it the parser got. */
type ParseError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }

/**
 * The bytes of the request Node's parser failed on for its method: the data it read holds the requests before it on
 * the connection too (pipelined, all in one packet), and the method is on the request line, which begins the request.
 */
function failedRequest(packet: Buffer, { bytesParsed = 0 }: ParseError): Buffer {
  return packet.subarray(packet.lastIndexOf('\n', Math.max(0, bytesParsed - 1)) + 1)
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
