/**
 * `_match_number_unicode` of CPython 3.11's `Modules/_json.c`, and the `int()` / `float()`
 * conversions it ends with.
 */
import { UnparseableJsonError } from './json-errors.js'
import { unitsToString } from './string-builder.js'
import { PyFloat, type PyValue } from './value.js'

const MINUS = 0x2d
const PLUS = 0x2b
const DOT = 0x2e
const ZERO = 0x30
const ONE = 0x31
const NINE = 0x39
const LOWER_E = 0x65
const UPPER_E = 0x45

/**
 * `sys.get_int_max_str_digits()` default (CPython 3.11.0+, 3.10.7+): converting a longer
 * decimal string to `int` raises `ValueError`, and `json.loads` lets it through.
 */
const INT_MAX_STR_DIGITS = 4300

/** A number read from JSON text, and the index just after it. */
export interface MatchedNumber {
  value: PyValue
  next: number
}

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= ZERO && c <= NINE

/**
 * Reads the longest JSON number at `start`, the way the C scanner does: a `.` or an exponent
 * that is not followed by a digit is left for the caller (`1.` reads `1`; then "Extra data").
 *
 * @returns `null` when no number starts here (CPython's `StopIteration`, "Expecting value").
 * @throws {UnparseableJsonError} for an int of more than {@link INT_MAX_STR_DIGITS} digits.
 */
export function matchJsonNumber(text: Uint32Array, start: number): MatchedNumber | null {
  const digitsStart = text[start] === MINUS ? start + 1 : start
  const integerEnd = skipIntegerPart(text, digitsStart)
  if (integerEnd < 0) return null
  const fractionEnd = skipFraction(text, integerEnd)
  const exponentEnd = skipExponent(text, fractionEnd)
  const literal = unitsToString(text, start, exponentEnd)
  const value =
    exponentEnd === integerEnd ? parseIntLiteral(literal, integerEnd - digitsStart) : parseFloatLiteral(literal)
  return { value, next: exponentEnd }
}

/** A lone `0`, or a non-zero digit and all the digits after it; -1 when neither is there. */
function skipIntegerPart(text: Uint32Array, idx: number): number {
  const first = text[idx]
  if (first === ZERO) return idx + 1
  if (first === undefined || first < ONE || first > NINE) return -1
  idx++
  while (isDigit(text[idx])) idx++
  return idx
}

/** `.` followed by at least one digit, then all the digits; otherwise nothing is read. */
function skipFraction(text: Uint32Array, idx: number): number {
  if (idx < text.length - 1 && text[idx] === DOT && isDigit(text[idx + 1])) {
    idx += 2
    while (isDigit(text[idx])) idx++
  }
  return idx
}

/**
 * `e`/`E`, an optional sign and digits. The C code backtracks to the `e` unless the last
 * character it read is a digit, so `1e`, `1e+` and `1E-` read only `1`.
 */
function skipExponent(text: Uint32Array, idx: number): number {
  const lastIndex = text.length - 1
  const marker = text[idx]
  if (!(idx < lastIndex && (marker === LOWER_E || marker === UPPER_E))) return idx
  let next = idx + 1
  if (next < lastIndex && (text[next] === MINUS || text[next] === PLUS)) next++
  while (isDigit(text[next])) next++
  return isDigit(text[next - 1]) ? next : idx
}

/** Python `float(literal)`: correctly rounded, like `Number`; `1e400` is `inf`. */
function parseFloatLiteral(literal: string): PyFloat {
  return new PyFloat(Number(literal))
}

/** Python `int(literal)`: exact, with the digit limit; `-0` is plain `0`. */
function parseIntLiteral(literal: string, digitCount: number): number | bigint {
  if (digitCount > INT_MAX_STR_DIGITS) {
    throw new UnparseableJsonError(`Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion`)
  }
  // 15 digits always fit a double exactly; past that, go through BigInt.
  if (digitCount <= 15) return Number(literal) || 0
  const big = BigInt(literal)
  const asNumber = Number(big)
  return Number.isSafeInteger(asNumber) ? asNumber : big
}
