import { jsonDecodeIssue, type DialectSettings } from '../pydantic/dialect.js'
import { MISSING, type Input } from '../pydantic/validate.js'
import { decodePythonText } from '../python/bytes-decode.js'
import { decodeJsonBody } from '../python/json-decode.js'
import { PythonStringBuilder } from '../python/string-builder.js'
import { httpError, validationError } from './responses.js'

/**
 * FastAPI's body read, which happens before authentication: empty → missing; a JSON
 * content type (or none, before FastAPI 0.132) → `json.loads`, whose failure answers 422
 * `json_invalid` at once; any other content type → the raw bytes, which the model then
 * refuses. Bytes that cannot be decoded answer 400. (The core has refused a body over its
 * size limit before.)
 * @returns the body as Python holds it, or MISSING when there is none (also for JSON `null`).
 */
export async function readBody(request: Request, settings: DialectSettings): Promise<Input> {
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength === 0) return MISSING
  const contentType = request.headers.get('content-type')
  if (contentType && !isJsonContentType(contentType)) {
    // FastAPI echoes undecoded bytes as `bytes.decode()`; invalid UTF-8 would crash it (500),
    // so the mock replaces the bad bytes instead.
    return new TextDecoder().decode(bytes)
  }
  const decoded = decodeJsonBody(bytes)
  if (decoded.ok) return decoded.value === null ? MISSING : decoded.value
  if (decoded.kind === 'unparseable') throw httpError(400, 'There was an error parsing the body')
  throw validationError([jsonDecodeIssue(settings, decoded.msg, decoded.pos, () => decodedText(bytes))])
}

/** The body as `json.loads` decoded it (pydantic 1's error echoes it whole). */
function decodedText(bytes: Uint8Array): { points: Uint32Array; text: string } {
  const points = decodePythonText(bytes) ?? new Uint32Array()
  const builder = new PythonStringBuilder()
  builder.pushRange(points, 0, points.length)
  return { points, text: builder.take() }
}

/**
 * `email.message.Message` content-type parsing as FastAPI uses it: the part before `;`,
 * trimmed and lowercased; anything but exactly one `/` counts as text/plain.
 */
export function isJsonContentType(header: string): boolean {
  const type = (header.split(';', 1)[0] ?? '').trim().toLowerCase()
  const parts = type.split('/')
  if (parts.length !== 2) return false
  const [main, sub] = parts as [string, string]
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'))
}
