import type { z } from 'zod'
import { pythonFloat } from '../python/float.js'
import { PyDict, PyFloat, type PyValue } from '../python/value.js'
import type { Loc } from './errors.js'
import { v1Error, type PydanticV1Error } from './v1-errors.js'
import { pythonDictItems } from './v1-dict.js'
import { intV1, strV1 } from './v1-scalars.js'
import { codePointLength } from './validate.js'

/** What validating one value gives: its Python value, or the errors (never both). */
export type OutcomeV1 = { ok: true; value: unknown } | { ok: false; errors: PydanticV1Error[] }

export const ok = (value: unknown): OutcomeV1 => ({ ok: true, value })
export const fail = (...errors: PydanticV1Error[]): OutcomeV1 => ({ ok: false, errors })

type Schema = z.core.$ZodType
export type Def = Schema['_zod']['def'] & Record<string, unknown>
type CheckDef = { check: string; maximum?: number; minimum?: number; value?: number; inclusive?: boolean }

/** pydantic 1's validators of the types that hold no other: constrained `str` and `int`, `str` Enums, `Dict[str, Any]`. */

const checksOf = (def: Def) => ((def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>).map((check) => check._zod.def)
export const checkValue = (def: Def, name: string, key: keyof CheckDef, inclusive?: boolean) =>
  checksOf(def).find((check) => check.check === name && (inclusive === undefined || check.inclusive === inclusive))?.[
    key
  ] as number | undefined

/** `constr(min_length=, max_length=)`: `str_validator`, then the length in code points. */
export function validateStr(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const text = strV1(input)
  if (!text.ok) return fail(v1Error(text.type, loc))
  const length = codePointLength(text.value)
  const [minimum, maximum] = [checkValue(def, 'min_length', 'minimum'), checkValue(def, 'max_length', 'maximum')]
  if (minimum !== undefined && length < minimum)
    return fail(v1Error('value_error.any_str.min_length', loc, { limit_value: minimum }))
  if (maximum !== undefined && length > maximum)
    return fail(v1Error('value_error.any_str.max_length', loc, { limit_value: maximum }))
  return ok(text.value)
}

/** `conint(ge=, le=)`: `int_validator`, then `number_size_validator`. */
export function validateInt(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const number = intV1(input)
  if (!number.ok) return fail(v1Error(number.type, loc))
  const [ge, le] = [checkValue(def, 'greater_than', 'value', true), checkValue(def, 'less_than', 'value', true)]
  if (ge !== undefined && number.value < ge) return fail(v1Error('value_error.number.not_ge', loc, { limit_value: ge }))
  if (le !== undefined && number.value > le) return fail(v1Error('value_error.number.not_le', loc, { limit_value: le }))
  return ok(number.value)
}

/** `confloat(ge=, le=)`: `float_validator` (Python's `float()`), then `number_size_validator`. */
export function validateFloat(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const number = pythonFloat(input)
  if (number === undefined) return fail(v1Error('type_error.float', loc))
  const [ge, le] = [checkValue(def, 'greater_than', 'value', true), checkValue(def, 'less_than', 'value', true)]
  if (ge !== undefined && number < ge) return fail(v1Error('value_error.number.not_ge', loc, { limit_value: ge }))
  if (le !== undefined && number > le) return fail(v1Error('value_error.number.not_le', loc, { limit_value: le }))
  return ok(new PyFloat(number))
}

/** `enum_member_validator` of a `str` Enum: a value equal to a member's. */
export function validateEnum(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const values = Object.values(def.entries as Record<string, string>)
  if (typeof input === 'string' && values.includes(input)) return ok(input)
  return fail(v1Error('type_error.enum', loc, { enum_values: values }))
}

/** `Dict[str, Any]`: `dict()` of the input, every key through `str_validator` (at `__key__`). */
export function validateDict(input: PyValue, loc: Loc): OutcomeV1 {
  const items = pythonDictItems(input)
  if (!items) return fail(v1Error('type_error.dict', loc))
  const dict = new PyDict()
  const errors: PydanticV1Error[] = []
  for (const [key, value] of items) {
    const name = key === null ? undefined : strV1(key)
    if (!name?.ok) errors.push(v1Error(name ? name.type : 'type_error.none.not_allowed', [...loc, '__key__']))
    else dict.set(name.value, value)
  }
  return errors.length ? fail(...errors) : ok(dict)
}
