import { request } from 'node:http'
import { connect } from 'node:net'
import type { Answer } from '../../support/answer.js'
import { HANG_GUARD_MS } from './fuzz.js'

/**
 * A request with exactly these headers and target on the wire (fetch would normalise the
 * path, set Host and refuse some headers). A body in several parts goes out chunked.
 */
export function rawRequest(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Uint8Array | Array<string | Uint8Array>,
): Promise<Answer> {
  const url = new URL(base)
  // Node frames a body itself only for POST, PUT and PATCH; for DELETE or OPTIONS it would send
  // the bytes unannounced, which the server's parser rightly refuses.
  const framing: Record<string, string> =
    body === undefined
      ? {}
      : Array.isArray(body)
        ? { 'transfer-encoding': 'chunked' }
        : { 'content-length': String(Buffer.byteLength(body)) }
  headers = { ...framing, ...headers }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers,
        setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host'),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    if (Array.isArray(body)) {
      for (const part of body) req.write(part)
      req.end()
    } else {
      req.end(body)
    }
  })
}

/**
 * Where the first whole HTTP response in `received` ends (its head, and a body framed by
 * Content-Length or chunked encoding); undefined while it is incomplete, or framed by the
 * close of the connection.
 */
function responseEnd(received: string): number | undefined {
  const headEnd = received.indexOf('\r\n\r\n')
  if (headEnd < 0) return undefined
  const head = received.slice(0, headEnd)
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1])
  const bodyStart = headEnd + 4
  if ((status >= 100 && status < 200) || status === 204 || status === 304) return bodyStart
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
  if (length !== undefined)
    return received.length - bodyStart >= Number(length) ? bodyStart + Number(length) : undefined
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const last = received.indexOf('\r\n0\r\n\r\n', bodyStart - 2)
    return last < 0 ? undefined : last + 7
  }
  return undefined
}

/**
 * Bytes straight onto a socket, and nothing more after them; resolves with what the server
 * sent back, once that is a whole HTTP response or the server closed the connection. Fails
 * when neither happens within the hang guard (the server waits for bytes that never come).
 */
export function rawExchange(base: string, bytes: string): Promise<string> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let received = ''
    const guard = setTimeout(() => {
      socket.destroy()
      reject(
        new Error(
          `hang guard: no whole answer and no close within ${HANG_GUARD_MS} ms; received so far: ${JSON.stringify(received)}`,
        ),
      )
    }, HANG_GUARD_MS)
    const done = () => {
      clearTimeout(guard)
      socket.destroy()
      resolve(received)
    }
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
      if (responseEnd(received) !== undefined) done()
    })
    socket.on('end', done)
    socket.on('close', done)
    socket.on('error', (error) => {
      // A reset right after a whole answer (the server closing on bytes it never read) is the answer.
      if (responseEnd(received) !== undefined) return done()
      clearTimeout(guard)
      reject(error)
    })
  })
}
