import { PyFloat, type PyValue } from './value.js'

/**
 * Python's `repr(float)`, which is what `json.dumps` writes for a `float`.
 *
 * CPython (`float_repr` → `PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0)`) takes the
 * shortest digit string that round-trips, then writes it in fixed notation when the decimal
 * exponent is in [-4, 16), and in exponent notation otherwise.
 */

/** Below this decimal exponent (of `d.ddd × 10^e`) CPython switches to `1e-05` style. */
const SMALLEST_FIXED_EXPONENT = -4
/** From this decimal exponent on CPython switches to `1e+16` style. */
const FIRST_EXPONENT_NOTATION = 16

/**
 * Formats a double exactly like CPython's `repr(float)`.
 *
 * Non-finite values give Python's own spellings `'nan'`, `'inf'` and `'-inf'`; JSON encoders
 * must decide themselves what to write for those.
 *
 * @example
 * pythonFloatRepr(100) // '100.0'
 * pythonFloatRepr(1e16) // '1e+16'
 * pythonFloatRepr(1.5e-7) // '1.5e-07'
 * pythonFloatRepr(-0) // '-0.0'
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  const { digits, exponent } = shortestDigits(Math.abs(x))
  const body =
    exponent < SMALLEST_FIXED_EXPONENT || exponent >= FIRST_EXPONENT_NOTATION
      ? exponentNotation(digits, exponent)
      : fixedNotation(digits, exponent)
  return sign + body
}

/**
 * The shortest round-trip digits of a finite, non-negative double, with the decimal exponent
 * of the first digit. `toExponential()` without an argument gives exactly those digits (the
 * same ones `repr` picks: both choose the closest of the shortest candidates).
 */
function shortestDigits(x: number): { digits: string; exponent: number } {
  const [mantissa = '0', exponentText = '0'] = x.toExponential().split('e')
  return { digits: mantissa.replace('.', ''), exponent: Number(exponentText) }
}

/** `d[.ddd]e±XX`: at least two exponent digits and always a sign, as C's `%e` does. */
function exponentNotation(digits: string, exponent: number): string {
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : ''
  const exponentSign = exponent < 0 ? '-' : '+'
  const exponentDigits = String(Math.abs(exponent)).padStart(2, '0')
  return `${digits[0]}${fraction}e${exponentSign}${exponentDigits}`
}

/** Plain decimal digits, with `.0` added when the value is integral (`Py_DTSF_ADD_DOT_0`). */
function fixedNotation(digits: string, exponent: number): string {
  if (exponent < 0) {
    return `0.${'0'.repeat(-exponent - 1)}${digits}`
  }
  const integerLength = exponent + 1
  if (digits.length <= integerLength) {
    return `${digits.padEnd(integerLength, '0')}.0`
  }
  return `${digits.slice(0, integerLength)}.${digits.slice(integerLength)}`
}

/**
 * Python's `float(value)` of what JSON decodes to: numbers and bools as they are, a numeric string once stripped
 * (underscores between digits, `inf`, `infinity`, `nan` in any case); `undefined` where `float()` raises.
 */
export function pythonFloat(input: PyValue): number | undefined {
  if (typeof input === 'number' || typeof input === 'bigint') return Number(input)
  if (typeof input === 'boolean') return input ? 1 : 0
  if (input instanceof PyFloat) return input.value
  if (typeof input !== 'string') return undefined
  const text = input.trim().replaceAll(/(?<=\d)_(?=\d)/g, '')
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity
  if (/^[+-]?nan$/i.test(text)) return Number.NaN
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : undefined
}
