import type { ValidationIssue } from '../pydantic/dialect.js'
import { encodePythonJson } from '../python/json-encode.js'
import { Reply } from './reply.js'
import { statusPhrase } from './status-phrases.js'

/**
 * The one place that writes the API's answers, byte for byte as Starlette's `JSONResponse`
 * writes them: compact JSON, raw UTF-8, `content-length` then `content-type: application/json`
 * (no charset). Handlers return or throw these; none builds a body of its own.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return textResponse(status, encodePythonJson(body), headers)
}

const utf8 = new TextEncoder()

function textResponse(status: number, text: string, headers: Record<string, string>): Reply {
  return bytesResponse(status, utf8.encode(text), headers)
}

/**
 * An answer of an operation a served OpenAPI document declares: JSON under the declared content type, or no
 * body at all (a 204, or a declared answer without content), as FastAPI's `Response(status_code=...)` writes it.
 */
export function declaredResponse(status: number, content?: { type: string; body: unknown }): Reply {
  if (!content) return new Reply(status, status === 204 || status === 304 ? {} : { 'content-length': '0' }, null)
  const response = jsonResponse(status, content.body)
  response.headers.set('content-type', content.type)
  return response
}

/** JSON bytes as Starlette's `JSONResponse` sends them. */
const bytesResponse = (status: number, bytes: Uint8Array, headers: Record<string, string> = {}): Reply =>
  new Reply(
    status,
    { ...headers, 'content-length': String(bytes.byteLength), 'content-type': 'application/json' },
    bytes,
  )

/**
 * Starlette's `PlainTextResponse`: the given headers in their order, then `content-length` and `content-type` (what a
 * CORS preflight answers).
 */
export const plainTextReply = (status: number, text: string, headers: Record<string, string>): Reply => {
  const bytes = utf8.encode(text)
  return new Reply(
    status,
    { ...headers, 'content-length': String(bytes.byteLength), 'content-type': 'text/plain; charset=utf-8' },
    bytes,
  )
}

/** What a Response is built from (the Fetch types, without the DOM library's names). */
type ResponseBody = ConstructorParameters<typeof Response>[0]
type ResponseHeaders = ConstructorParameters<typeof Headers>[0]

/** A Response with uvicorn's reason phrase (Fetch leaves `statusText` empty), for a body the mock does not write as bytes. */
export const answer = (body: ResponseBody, status: number, headers: ResponseHeaders): Response =>
  new Response(body, { status, statusText: statusPhrase(status), headers })

/** An answer whose JSON was written once and is sent as it is. */
export const encodedJsonResponse = (status: number, json: string, headers: Record<string, string> = {}): Reply =>
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
export const listResponse = (encodedResults: readonly EncodedJson[], total: number): Reply =>
  bytesResponse(200, joinJson(RESULTS_OPEN, encodedResults, `],"total":${total}}`))

/** A JSON array of records already written as JSON. */
export const arrayResponse = (status: number, encodedItems: readonly EncodedJson[]): Reply =>
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
export const httpError = (status: number, detail: string, headers: Record<string, string> = {}): Reply =>
  jsonResponse(status, { detail }, headers)

/** FastAPI's `RequestValidationError` handler. */
export const validationError = (errors: readonly ValidationIssue[]): Reply => jsonResponse(422, { detail: errors })

/** Starlette's 404 for a path no route matches. */
export const notFound = (): Reply => httpError(404, 'Not Found')

/** Starlette's 405: `allow` lists the methods of the first route whose path matched. */
export const methodNotAllowed = (allow: readonly string[]): Reply =>
  httpError(405, 'Method Not Allowed', { allow: allow.join(', ') })

/** Starlette's `RedirectResponse` from `redirect_slashes`: 307, empty body, absolute `location`. */
export const temporaryRedirect = (location: string): Reply => new Reply(307, { 'content-length': '0', location }, null)

/** Starlette's `ServerErrorMiddleware` answer to an unhandled exception: plain text, no detail. */
export const internalServerError = (): Response =>
  answer('Internal Server Error', 500, { 'content-type': 'text/plain; charset=utf-8' })

/** An HTML page (the docs), as Starlette's `HTMLResponse` writes it. */
export const htmlResponse = (html: string): Reply => {
  const bytes = utf8.encode(html)
  return new Reply(
    200,
    { 'content-length': String(bytes.byteLength), 'content-type': 'text/html; charset=utf-8' },
    bytes,
  )
}
