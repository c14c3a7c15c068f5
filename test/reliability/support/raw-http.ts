import { request } from 'node:http'
import { connect } from 'node:net'
import type { Answer } from '../../support/answer.js'

/**
 * A request with exactly these headers and target on the wire (fetch would normalise the
 * path, set Host and refuse some headers). A body in several parts goes out chunked.
 */
export function rawRequest(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: string | Uint8Array | Array<string | Uint8Array>): Promise<Answer> {
  const url = new URL(base)
  // Node frames a body itself only for POST, PUT and PATCH; for DELETE or OPTIONS it would send
  // the bytes unannounced, which the server's parser rightly refuses.
  const framing: Record<string, string> = body === undefined ? {} : Array.isArray(body) ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body)) }
  headers = { ...framing, ...headers }
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: target, headers, setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host'), agent: false }, (res) => {
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
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, json })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (Array.isArray(body)) {
      for (const part of body) req.write(part)
      req.end()
    } else {
      req.end(body)
    }
  })
}

/** Bytes straight onto a socket; resolves with everything the server sent back before closing or going quiet. */
export function rawExchange(base: string, bytes: string, quietMs = 300): Promise<string> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let received = ''
    let timer: NodeJS.Timeout | undefined
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(received)
    }
    const quiet = () => {
      clearTimeout(timer)
      timer = setTimeout(done, quietMs)
    }
    socket.on('connect', () => {
      socket.write(bytes)
      quiet()
    })
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
      quiet()
    })
    socket.on('end', done)
    socket.on('error', reject)
  })
}
