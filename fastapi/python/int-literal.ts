/**
 * CPython 3.11's `int(text, base)` for a `str` (`PyLong_FromUnicodeObject` → `PyLong_FromString`), which
 * pydantic 1 calls for every lax `int` and, with base 16, `uuid.UUID()` for every UUID string.
 */

/** `Py_ISSPACE`: the ASCII whitespace `PyLong_FromString` skips around the digits. */
const ASCII_SPACE = /^[ \t\n\v\f\r]$/
/** `Py_UNICODE_ISSPACE` above ASCII (`str.isspace()`), which CPython turns into a space first. */
const UNICODE_SPACE = /^[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u
const DECIMAL_DIGIT = /^\p{Nd}$/u

/**
 * `_PyUnicode_TransformDecimalAndSpaceToASCII`: ASCII stays, other whitespace becomes a space, any
 * other decimal digit (Arabic-Indic, fullwidth, ...) its ASCII digit, and anything else `?`.
 */
function toAscii(text: string): string {
  let ascii = ''
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x80) ascii += char
    else if (UNICODE_SPACE.test(char)) ascii += ' '
    else if (DECIMAL_DIGIT.test(char)) ascii += String(decimalValue(code))
    else ascii += '?'
  }
  return ascii
}

/** Unicode lays every decimal digit set out as ten code points from its zero, sets side by side. */
function decimalValue(code: number): number {
  let start = code
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--
  return (code - start) % 10
}

/** The digits `PyLong_FromString` accepts, by base. */
const DIGITS: Readonly<Record<10 | 16, RegExp>> = { 10: /^[0-9]$/, 16: /^[0-9a-fA-F]$/ }
const PREFIX_16 = /^0[xX]/

/**
 * The value of `int(text, base)`, or `undefined` where Python raises `ValueError`: surrounding whitespace,
 * one sign, `0x` for base 16 (then one optional `_`), digits with single `_` between them, nothing else.
 * @example
 * parsePythonInt(' +1_000 ', 10) // 1000n
 * parsePythonInt('٣', 10) // 3n
 * parsePythonInt('1.0', 10) // undefined
 */
export function parsePythonInt(text: string, base: 10 | 16): bigint | undefined {
  let rest = toAscii(text)
  let at = 0
  while (at < rest.length && ASCII_SPACE.test(rest[at]!)) at++
  let end = rest.length
  while (end > at && ASCII_SPACE.test(rest[end - 1]!)) end--
  rest = rest.slice(at, end)
  const negative = rest.startsWith('-')
  if (negative || rest.startsWith('+')) rest = rest.slice(1)
  if (base === 16 && PREFIX_16.test(rest)) rest = rest.slice(rest[2] === '_' ? 3 : 2)
  if (!isDigitRun(rest, DIGITS[base])) return undefined
  const value = BigInt(`${base === 16 ? '0x' : ''}${rest.replaceAll('_', '')}`)
  return negative ? -value : value
}

/** At least one digit; an underscore only between two digits. */
function isDigitRun(text: string, digit: RegExp): boolean {
  if (text === '') return false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '_') {
      if (i === 0 || i === text.length - 1 || text[i + 1] === '_') return false
    } else if (!digit.test(char)) return false
  }
  return true
}
