import { pythonFloatRepr } from '../python/float.js'
import { parsePythonInt } from '../python/int-literal.js'
import { pythonUuid } from '../python/uuid-constructor.js'
import { PyFloat, type PyValue } from '../python/value.js'

/**
 * pydantic 1.10's lax scalar validators (`pydantic/validators.py`), on values as `json.loads` or the
 * query string gives them. Each returns the Python value, or the error type it raises.
 */
export type ScalarOutcome<T> = { ok: true; value: T } | { ok: false; type: string }

const ok = <T>(value: T): ScalarOutcome<T> => ({ ok: true, value })
const fail = (type: string): ScalarOutcome<never> => ({ ok: false, type })

/** `max_str_int`: a longer string is refused before `int()` is tried. */
const MAX_STR_INT = 4300

/**
 * `str_validator`: a `str` as it is; an `int`, `float` or `bool` (an int in Python) as `str()` writes it
 * (`5` → `'5'`, `1e16` → `'1e+16'`, `true` → `'True'`); anything else `type_error.str`. Nothing is stripped.
 */
export function strV1(input: PyValue): ScalarOutcome<string> {
  if (typeof input === 'string') return ok(input)
  if (typeof input === 'boolean') return ok(input ? 'True' : 'False')
  if (typeof input === 'bigint') return ok(String(input))
  if (typeof input === 'number') return ok(Number.isInteger(input) ? String(input) : pythonFloatRepr(input))
  if (input instanceof PyFloat) return ok(pythonFloatRepr(input.value))
  return fail('type_error.str')
}

/**
 * `int_validator`: an `int` as it is, a `bool` as 0/1, a `float` truncated toward zero (NaN and infinities
 * fail), a `str` of at most 4300 characters as `int(text)` reads it; anything else `type_error.integer`.
 */
export function intV1(input: PyValue): ScalarOutcome<number | bigint> {
  if (typeof input === 'boolean') return ok(input ? 1 : 0)
  if (typeof input === 'bigint') return ok(pythonInt(input))
  if (typeof input === 'number') return Number.isInteger(input) ? ok(input === 0 ? 0 : input) : truncate(input)
  if (input instanceof PyFloat) return truncate(input.value)
  if (typeof input === 'string' && [...input].length <= MAX_STR_INT) {
    const value = parsePythonInt(input, 10)
    if (value !== undefined) return ok(pythonInt(value))
  }
  return fail('type_error.integer')
}

const truncate = (value: number): ScalarOutcome<number | bigint> =>
  Number.isFinite(value) ? ok(pythonInt(BigInt(Math.trunc(value)))) : fail('type_error.integer')

/** A Python int as the mock holds it: a `number` when it is a safe integer, else a `bigint`. */
function pythonInt(value: bigint): number | bigint {
  const asNumber = Number(value)
  return Number.isSafeInteger(asNumber) ? (asNumber === 0 ? 0 : asNumber) : value
}

const BOOL_FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no'])
const BOOL_TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes'])

/**
 * `bool_validator`: `str.lower()` of a string must be one of `0 off f false n no` / `1 on t true y yes`
 * (nothing is stripped); a number must equal 0 or 1 (`1.0` too); anything else `type_error.bool`.
 */
export function boolV1(input: PyValue): ScalarOutcome<boolean> {
  if (typeof input === 'boolean') return ok(input)
  if (typeof input === 'string') {
    const word = input.toLowerCase()
    return BOOL_TRUE.has(word) ? ok(true) : BOOL_FALSE.has(word) ? ok(false) : fail('type_error.bool')
  }
  const number =
    typeof input === 'number' || typeof input === 'bigint'
      ? Number(input)
      : input instanceof PyFloat
        ? input.value
        : NaN
  return number === 1 ? ok(true) : number === 0 ? ok(false) : fail('type_error.bool')
}

/** `uuid_validator`: a string `uuid.UUID()` accepts (see {@link pythonUuid}); anything else `type_error.uuid`. */
export function uuidV1(input: PyValue): ScalarOutcome<string> {
  const uuid = typeof input === 'string' ? pythonUuid(input) : undefined
  return uuid === undefined ? fail('type_error.uuid') : ok(uuid)
}
