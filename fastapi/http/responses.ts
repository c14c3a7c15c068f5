import type { ValidationIssue } from '../pydantic/dialect.js'
import { encodePythonJson } from '../python/json-encode.js'
import { statusPhrase } from './status-phrases.js'

/**
 * The one place that writes the API's answers, byte for byte as Starlette's `JSONResponse`
 * writes them: compact JSON, raw UTF-8, `content-length` then `content-type: application/json`
 * (no charset). Handlers return or throw these; none builds a body of its own.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return textResponse(status, encodePythonJson(body), headers)
}

const utf8 = new TextEncoder()

function textResponse(status: number, text: string, headers: Record<string, string>): Response {
  return bytesResponse(status, utf8.encode(text), headers)
}

/**
 * An answer of an operation a served OpenAPI document declares: JSON under the declared content type, or no
 * body at all (a 204, or a declared answer without content), as FastAPI's `Response(status_code=...)` writes it.
 */
export function declaredResponse(status: number, content?: { type: string; body: unknown }): Response {
  if (!content) return answer(null, status, status === 204 || status === 304 ? {} : { 'content-length': '0' })
  const response = jsonResponse(status, content.body)
  response.headers.set('content-type', content.type)
  return response
}

/**
 * An answer holding its bytes, without a body stream yet: {@link withBody} gives it one
 * where a Fetch runtime reads it, and a host that writes {@link writtenBody} to the socket
 * never needs one. Each body stream costs more than the page it carries in Node 20: the
 * body is copied, and the stream is a transferable object that outlives young-generation
 * GCs (with what it holds of the request it answered).
 */
function bytesResponse(status: number, bytes: Uint8Array, headers: Record<string, string> = {}): Response {
  const headersWritten = { ...headers, 'content-length': String(bytes.byteLength), 'content-type': 'application/json' }
  return holding(answer(null, status, headersWritten), bytes)
}

/** What a Response is built from (the Fetch types, without the DOM library's names). */
type ResponseBody = ConstructorParameters<typeof Response>[0]
type ResponseHeaders = ConstructorParameters<typeof Headers>[0]

/**
 * A Response with uvicorn's reason phrase (Fetch leaves `statusText` empty). A bodiless answer's headers
 * given as a record are set one by one: undici's conversion of a record (and msw 3's, which builds a
 * second `Headers` from it to note the raw headers) cost ~8 µs, the same headers set ~1.5–3 µs. A body
 * is left to the constructor, which adds a `content-type` for some bodies unless one is given.
 */
export function answer(body: ResponseBody, status: number, headers: ResponseHeaders): Response {
  const statusText = statusPhrase(status)
  if (body !== null || !isHeaderRecord(headers)) return new Response(body, { status, statusText, headers })
  const response = new Response(null, { status, statusText })
  for (const name in headers) response.headers.set(name, headers[name] as string)
  return response
}

/** A plain object of headers (not `Headers`, whose `instanceof` goes through msw 3's proxy of the class). */
const isHeaderRecord = (headers: ResponseHeaders): headers is Record<string, string> =>
  typeof headers === 'object' && Object.getPrototypeOf(headers) === Object.prototype

const holding = (response: Response, bytes: Uint8Array): Response => (
  ((response as WrittenResponse)[WRITTEN_BODY] = bytes), response
)

/**
 * Where an answer keeps the bytes this module wrote: on the response itself, rather than
 * in a `WeakMap`, whose entries outlive young-generation GCs.
 */
const WRITTEN_BODY = Symbol('agent-console-mock written body')
type WrittenResponse = Response & { [WRITTEN_BODY]?: Uint8Array }

/**
 * The exact bytes of an answer this module wrote, without reading its body stream (a host
 * writes them straight to the socket). `undefined` for any other response.
 */
export const writtenBody = (response: Response): Uint8Array | undefined => (response as WrittenResponse)[WRITTEN_BODY]

/**
 * The answer as a Fetch runtime reads it: with its body. Responses that already have one,
 * or were not written here, are returned as they are.
 */
export function withBody(response: Response): Response {
  const bytes = writtenBody(response)
  if (!bytes || response.body || bytes.byteLength === 0) return response
  return holding(answer(bytes as Uint8Array<ArrayBuffer>, response.status, response.headers), bytes)
}

/** The same answer with no body and no bytes (uvicorn's answer to HEAD): every header, content-length included, is kept. */
export const withoutBody = (response: Response): Response => answer(null, response.status, response.headers)

/** An answer whose JSON was written once and is sent as it is. */
export const encodedJsonResponse = (status: number, json: string, headers: Record<string, string> = {}): Response =>
  textResponse(status, json, headers)

const RESULTS_OPEN = utf8.encode('{"results":[')
const ARRAY_OPEN = utf8.encode('[')
const COMMA_BYTE = 0x2c // ','

/** JSON already written: remembered as UTF-8 bytes, or text written just now. */
export type EncodedJson = Uint8Array | string

/**
 * A list envelope `{"results": [...], "total": N}` from records already written as JSON:
 * the bytes `jsonResponse` would write for the same envelope.
 */
export const listResponse = (encodedResults: readonly EncodedJson[], total: number): Response =>
  bytesResponse(200, joinJson(RESULTS_OPEN, encodedResults, `],"total":${total}}`))

/** A JSON array of records already written as JSON. */
export const arrayResponse = (status: number, encodedItems: readonly EncodedJson[]): Response =>
  bytesResponse(status, joinJson(ARRAY_OPEN, encodedItems, ']'))

/**
 * `open`, the items separated by commas, then `close`, put straight into one buffer: no
 * page-sized string is built, and text (`close` too: no buffer of its own) is encoded in place.
 */
function joinJson(open: Uint8Array, items: readonly EncodedJson[], close: string): Uint8Array {
  // UTF-8 takes at most 3 bytes for each UTF-16 unit of text.
  let room = open.byteLength + close.length * 3 + items.length
  for (const item of items) room += typeof item === 'string' ? item.length * 3 : item.byteLength
  const bytes = new Uint8Array(room)
  bytes.set(open, 0)
  let offset = open.byteLength
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as EncodedJson
    if (index > 0) bytes[offset++] = COMMA_BYTE
    if (typeof item === 'string') offset += utf8.encodeInto(item, bytes.subarray(offset)).written
    else bytes.set(item, offset), (offset += item.byteLength)
  }
  offset += utf8.encodeInto(close, bytes.subarray(offset)).written
  return bytes.subarray(0, offset)
}

/** FastAPI's `HTTPException` handler: `{"detail": "..."}` with the exception's headers. */
export const httpError = (status: number, detail: string, headers: Record<string, string> = {}): Response =>
  jsonResponse(status, { detail }, headers)

/** FastAPI's `RequestValidationError` handler. */
export const validationError = (errors: readonly ValidationIssue[]): Response => jsonResponse(422, { detail: errors })

/** Starlette's 404 for a path no route matches. */
export const notFound = (): Response => httpError(404, 'Not Found')

/** Starlette's 405: `allow` lists the methods of the first route whose path matched. */
export const methodNotAllowed = (allow: readonly string[]): Response =>
  httpError(405, 'Method Not Allowed', { allow: allow.join(', ') })

/** Starlette's `RedirectResponse` from `redirect_slashes`: 307, empty body, absolute `location`. */
export const temporaryRedirect = (location: string): Response => answer(null, 307, { 'content-length': '0', location })

/** Starlette's `ServerErrorMiddleware` answer to an unhandled exception: plain text, no detail. */
export const internalServerError = (): Response =>
  answer('Internal Server Error', 500, { 'content-type': 'text/plain; charset=utf-8' })

/** An HTML page (the docs), as Starlette's `HTMLResponse` writes it. */
export const htmlResponse = (html: string): Response => {
  const bytes = utf8.encode(html)
  return holding(
    answer(null, 200, { 'content-length': String(bytes.byteLength), 'content-type': 'text/html; charset=utf-8' }),
    bytes,
  )
}
