import { httpError } from '../fastapi/http/responses.js'
import type { Answer, Exchange } from './exchange.js'

/**
 * Refuses a request body over `maxBytes` with 413 before anything else looks at the request
 * (a deliberate difference: FastAPI has no limit of its own): at once when its declared
 * length is over, or as soon as the bytes read go over. Otherwise the request goes on with
 * its body read, so no later step can be made to read more.
 */
export function withBodyLimit(next: Answer, maxBytes: number): Answer {
  const limited = async (exchange: Exchange, body: ReadableStream<Uint8Array>) => {
    const { request } = exchange
    if (Number(request.headers.get('content-length')) > maxBytes) return tooLarge()
    const bytes = await readUpTo(body, maxBytes)
    if (!bytes) return tooLarge()
    const read = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: bytes,
      signal: request.signal,
    })
    return next({ ...exchange, request: read, bodyLength: bytes.byteLength })
  }
  return (exchange) => (exchange.request.body ? limited(exchange, exchange.request.body) : next(exchange))
}

const tooLarge = () => httpError(413, 'Request body too large')

/** The whole body, or undefined as soon as it is longer than `limit` (the rest is not read). */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength
    if (size > limit) {
      void reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(chunk.value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) bytes.set(chunk, offset), (offset += chunk.byteLength)
  return bytes
}
