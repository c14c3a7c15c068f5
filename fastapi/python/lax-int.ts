import { PyFloat, type PyValue } from './value.js'

/**
 * pydantic's lax `int` validation (pydantic-core `str_as_int`, `clean_int_str`,
 * `strip_leading_zeros`, `strip_underscores` and `float_as_int` in `src/input/shared.rs`,
 * v2.41.5; jiter's `NumberInt::from_bytes` for the strict parse).
 */

type LaxIntError = 'int_parsing' | 'int_parsing_size'

export type LaxIntResult = { ok: true; value: bigint } | { ok: false; type: LaxIntError }

type PythonIntError = 'int_type' | LaxIntError | 'int_from_float' | 'finite_number'

export type PythonIntResult = { ok: true; value: number | bigint } | { ok: false; type: PythonIntError }

/** jiter refuses an integer whose leading digit run (sign included) ends past byte 4300. */
const MAX_INT_LENGTH = 4300

const JSON_INT = /^-?(?:0|[1-9][0-9]*)$/
const DIGIT_RUN = /^-?[1-9][0-9]*/

/**
 * Rust's `char::is_whitespace` (Unicode White_Space), which `str::trim` uses. It differs from
 * JavaScript's `trim`: U+0085 counts, U+FEFF does not.
 */
const RUST_WHITESPACE =
  '[\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]'
const RUST_TRIM = new RegExp(`^${RUST_WHITESPACE}+|${RUST_WHITESPACE}+$`, 'g')

/**
 * Trims like Rust's `str::trim` (Unicode White_Space at both ends).
 * @example
 * rustTrim('\u00855\u00a0') // '5'
 * rustTrim('\ufeff5') // '\ufeff5'
 */
export function rustTrim(text: string): string {
  return text.replace(RUST_TRIM, '')
}

type StrictInt = { ok: true; value: bigint } | { ok: false; tooBig: boolean }

/** jiter's `NumberInt::from_bytes`: a JSON integer and nothing else. */
function parseJsonInt(text: string): StrictInt {
  // jiter checks the size while it reads the digits, so `1…1x` past the limit is "too big"
  // even though it is not an integer at all.
  const run = DIGIT_RUN.exec(text)
  if (run !== null && run[0].length > MAX_INT_LENGTH) {
    return { ok: false, tooBig: true }
  }
  if (!JSON_INT.test(text)) {
    return { ok: false, tooBig: false }
  }
  return { ok: true, value: BigInt(text) }
}

const isNonZeroDigit = (char: string): boolean => char >= '1' && char <= '9'

/**
 * `strip_leading_zeros`: keeps one zero before a `.`, skips `_` among the zeros, and (a quirk
 * kept on purpose) hands back a `-` that follows the zeros, so `0-5` ends up as `-5`.
 */
function stripLeadingZeros(text: string): string | undefined {
  const first = text[0]
  if (first === undefined) {
    return undefined
  }
  if (first !== '0') {
    return isNonZeroDigit(first) || first === '-' ? text : undefined
  }
  for (let index = 1; index < text.length; index++) {
    const char = text[index] ?? ''
    if (char === '0' || char === '_') {
      continue
    }
    if (isNonZeroDigit(char) || char === '-') {
      return text.slice(index)
    }
    return char === '.' ? text.slice(index - 1) : undefined
  }
  // All zeros (or underscores): the last character, which may be an `_` that then fails.
  return text.slice(-1)
}

/** Drops a fractional part made only of zeros (`.0`, `.000`), never a bare `.`. */
function stripDecimalZeros(text: string): string {
  const dot = text.indexOf('.')
  if (dot === -1) {
    return text
  }
  const decimals = text.slice(dot + 1)
  return decimals !== '' && /^0+$/.test(decimals) ? text.slice(0, dot) : text
}

/** `strip_underscores`: only when there are some, none at either end and none doubled. */
function stripUnderscores(text: string): string | undefined {
  if (text.startsWith('_') || text.endsWith('_') || !text.includes('_') || text.includes('__')) {
    return undefined
  }
  return text.replaceAll('_', '')
}

/** Takes one leading sign off; `undefined` for `+-`, `--` and `-+`. */
function splitSign(text: string): { negative: boolean; rest: string } | undefined {
  let rest = text
  if (rest.startsWith('+')) {
    if (rest[1] === '-') {
      return undefined
    }
    rest = rest.slice(1)
  }
  if (!rest.startsWith('-')) {
    return { negative: false, rest }
  }
  const next = rest[1]
  return next === '-' || next === '+' ? undefined : { negative: true, rest: rest.slice(1) }
}

/** `clean_int_str`: `undefined` when nothing could be cleaned, which is itself a failure. */
function cleanIntStr(original: string): string | undefined {
  const signed = splitSign(rustTrim(original))
  if (signed === undefined) {
    return undefined
  }
  const unzeroed = stripLeadingZeros(signed.rest)
  if (unzeroed === undefined) {
    return undefined
  }
  const text = stripDecimalZeros(unzeroed)
  const sign = signed.negative ? '-' : ''
  const withoutUnderscores = stripUnderscores(text)
  if (withoutUnderscores !== undefined) {
    return sign + withoutUnderscores
  }
  // `text` is a substring of `original`, so the same length means nothing was removed.
  return text.length === original.length ? undefined : sign + text
}

/**
 * Parses a string the way pydantic's lax `int` validator does (pydantic ≥ 2.7).
 *
 * A strict JSON integer is taken as it is (more than 4300 characters → `int_parsing_size`).
 * Anything else is cleaned first: surrounding Unicode whitespace, one `+`, leading zeros,
 * a `.0…` fraction and single inner underscores; then it must be a JSON integer.
 * @example
 * parseLaxInt(' +05.00') // { ok: true, value: 5n }
 * parseLaxInt('1e2') // { ok: false, type: 'int_parsing' }
 * @see https://github.com/pydantic/pydantic-core/blob/v2.41.5/src/input/shared.rs
 */
export function parseLaxInt(text: string): LaxIntResult {
  const strict = parseJsonInt(text)
  if (strict.ok) {
    return strict
  }
  if (strict.tooBig) {
    return { ok: false, type: 'int_parsing_size' }
  }
  const cleaned = cleanIntStr(text)
  const parsed = cleaned === undefined ? undefined : parseJsonInt(cleaned)
  // A cleaned string that is too long is only `int_parsing`: pydantic maps every second-pass
  // error to it.
  return parsed?.ok === true ? parsed : { ok: false, type: 'int_parsing' }
}

/** A Python int as the mock holds it: a `number` when it is a safe integer, else a `bigint`. */
function toPythonInt(value: bigint): number | bigint {
  const asNumber = Number(value)
  return Number.isSafeInteger(asNumber) ? asNumber : value
}

/** `(i64::MIN as f64, i64::MAX as f64)`, both exclusive: ±2^63. */
const I64_FLOAT_BOUND = 2 ** 63

/**
 * pydantic's `float_as_int`: NaN and ±inf → `finite_number`, a fraction → `int_from_float`,
 * outside the open i64 range → `int_parsing_size` (so even `-2**63` as a float fails).
 * @example
 * floatAsInt(3) // { ok: true, value: 3 }
 * floatAsInt(3.5) // { ok: false, type: 'int_from_float' }
 */
function floatAsInt(value: number): PythonIntResult {
  if (!Number.isFinite(value)) {
    return { ok: false, type: 'finite_number' }
  }
  if (value % 1 !== 0) {
    return { ok: false, type: 'int_from_float' }
  }
  if (value <= -I64_FLOAT_BOUND || value >= I64_FLOAT_BOUND) {
    return { ok: false, type: 'int_parsing_size' }
  }
  return { ok: true, value: toPythonInt(BigInt(value)) }
}

/**
 * pydantic's lax `int` validator in Python mode, for a value as `json.loads` produced it
 * (FastAPI validates JSON bodies with `validate_python`).
 *
 * `bool` → 0/1, `int` → itself, `float` → {@link floatAsInt}, `str` → {@link parseLaxInt},
 * anything else → `int_type`. The result is a `number` when it is a safe integer.
 * @example
 * validatePythonInt(true) // { ok: true, value: 1 }
 * validatePythonInt(new PyFloat(1e2)) // { ok: true, value: 100 }
 * validatePythonInt(' 7 ') // { ok: true, value: 7 }
 * validatePythonInt(null) // { ok: false, type: 'int_type' }
 * @see https://github.com/pydantic/pydantic-core/blob/v2.41.5/src/input/input_python.rs
 */
export function validatePythonInt(value: PyValue): PythonIntResult {
  if (typeof value === 'boolean') {
    return { ok: true, value: value ? 1 : 0 }
  }
  if (typeof value === 'bigint') {
    return { ok: true, value: toPythonInt(value) }
  }
  if (typeof value === 'number') {
    // A `number` is a Python int by contract; a non-integer one is treated as the float it is.
    return Number.isInteger(value) ? { ok: true, value: value === 0 ? 0 : value } : floatAsInt(value)
  }
  if (value instanceof PyFloat) {
    return floatAsInt(value.value)
  }
  if (typeof value === 'string') {
    const parsed = parseLaxInt(value)
    return parsed.ok ? { ok: true, value: toPythonInt(parsed.value) } : parsed
  }
  return { ok: false, type: 'int_type' }
}
