/**
 * What Starlette's `await request.json()` does to a request body on CPython 3.11:
 * `json.loads(body)`, i.e. encoding detection, `surrogatepass` decoding, and the C scanner of
 * `Modules/_json.c` driven by `JSONDecoder.decode` (`Lib/json/decoder.py`).
 *
 * Error messages are the 3.11 ones: a trailing comma is "Expecting property name enclosed in
 * double quotes" / "Expecting value", not the "Illegal trailing comma" of newer CPythons.
 */
import { decodePythonText } from './bytes-decode.js'
import { JsonDecodeError, UnparseableJsonError } from './json-errors.js'
import { JsonScanner, MAX_JSON_DEPTH } from './json-scanner.js'
import type { PyValue } from './value.js'

export { MAX_JSON_DEPTH }

/**
 * The outcome of decoding a request body.
 *
 * - `{ ok: true, value }`: the Python value `json.loads` returns.
 * - `{ ok: false, kind: 'json', msg, pos }`: a `json.JSONDecodeError`. FastAPI answers 422
 *   `json_invalid` with `loc: ["body", pos]` and `ctx.error: msg`; `pos` is a code-point
 *   index into the decoded text.
 * - `{ ok: false, kind: 'unparseable' }`: any other exception (`UnicodeDecodeError`, an int of
 *   more than 4300 digits, nesting deeper than {@link MAX_JSON_DEPTH}). FastAPI answers 400
 *   `{"detail":"There was an error parsing the body"}`.
 */
export type DecodeResult =
  | { ok: true; value: PyValue }
  | { ok: false; kind: 'json'; msg: string; pos: number }
  | { ok: false; kind: 'unparseable' }

/**
 * Decodes a JSON request body exactly like CPython 3.11's `json.loads(bytes)`.
 *
 * FastAPI never calls `json.loads` on an empty body (it counts as missing); if given one this
 * returns `Expecting value` at 0, as Python would. `maxDepth` replaces {@link MAX_JSON_DEPTH}.
 *
 * @example
 * decodeJsonBody(new TextEncoder().encode('{"values": [],}'))
 * // { ok: false, kind: 'json', msg: 'Expecting property name enclosed in double quotes', pos: 14 }
 */
export function decodeJsonBody(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): DecodeResult {
  const text = decodePythonText(bytes)
  if (text === null) return { ok: false, kind: 'unparseable' }
  try {
    return { ok: true, value: new JsonScanner(text, maxDepth).decodeDocument() }
  } catch (error) {
    if (error instanceof JsonDecodeError) {
      return { ok: false, kind: 'json', msg: error.msg, pos: error.pos }
    }
    if (error instanceof UnparseableJsonError) return { ok: false, kind: 'unparseable' }
    throw error
  }
}
