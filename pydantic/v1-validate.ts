import type { z } from 'zod'
import { PyDict, PyFloat, type PyValue } from '../python/value.js'
import type { Loc } from './errors.js'
import { v1Error, type PydanticV1Error } from './v1-errors.js'
import { pythonDictItems } from './v1-dict.js'
import { boolV1, intV1, strV1, uuidV1, type ScalarOutcome } from './v1-scalars.js'
import { codePointLength, MISSING, type Input } from './validate.js'

/** What validating one value gives: its Python value, or the errors (never both). */
export type OutcomeV1 = { ok: true; value: unknown } | { ok: false; errors: PydanticV1Error[] }

const ok = (value: unknown): OutcomeV1 => ({ ok: true, value })
const fail = (...errors: PydanticV1Error[]): OutcomeV1 => ({ ok: false, errors })

type Schema = z.core.$ZodType
type Def = Schema['_zod']['def'] & Record<string, unknown>
type CheckDef = { check: string; maximum?: number; minimum?: number; value?: number; inclusive?: boolean }

/**
 * Validates a value against a zod schema the way pydantic 1.10's `ModelField.validate` validates the
 * annotation it stands for: missing → `value_error.missing` unless there is a default, `None` →
 * `type_error.none.not_allowed` unless the field is `Optional` (a `default_factory` field is not), then
 * the lax validators of `pydantic/validators.py`, constraints, lists item by item and models field by field.
 */
export function validateV1(schema: Schema, input: Input, loc: Loc): OutcomeV1 {
  const field = peel(schema)
  if (input === MISSING) {
    if (field.default) return ok(toPython(field.default.value))
    return field.optional ? ok(null) : fail(v1Error('value_error.missing', loc))
  }
  if (input === null) return field.allowNone ? ok(null) : fail(v1Error('type_error.none.not_allowed', loc))
  return validateType(field.inner, input, loc)
}

/** The optional/nullable/default wrappers, peeled: `Optional[X] = None` allows None, a factory default does not. */
function peel(schema: Schema) {
  let current = schema
  let nullable = false
  let optional = false
  let fieldDefault: { value: unknown } | undefined
  for (let def = current._zod.def as Def; ; def = current._zod.def as Def) {
    if (def.type === 'nullable') nullable = true
    else if (def.type === 'optional') optional = true
    else if (def.type === 'default')
      fieldDefault ??= { value: (def as unknown as { defaultValue: unknown }).defaultValue }
    else break
    current = (def as unknown as { innerType: Schema }).innerType
  }
  const allowNone = nullable || (optional && fieldDefault === undefined) || fieldDefault?.value === null
  return { inner: current, optional, default: fieldDefault, allowNone }
}

function validateType(schema: Schema, input: PyValue, loc: Loc): OutcomeV1 {
  const def = schema._zod.def as Def
  switch (def.type) {
    case 'string':
      return def.format === 'uuid' ? scalar(uuidV1(input), loc) : validateStr(def, input, loc)
    case 'number':
      return validateInt(def, input, loc)
    case 'boolean':
      return scalar(boolV1(input), loc)
    case 'enum':
      return validateEnum(def, input, loc)
    case 'array':
      return validateList(def, input, loc)
    case 'object':
      return validateModel(def, input, loc)
    case 'record':
      return validateDict(input, loc)
    case 'unknown':
    case 'any':
      return ok(input)
    default:
      throw new Error(`validateV1 does not support zod type "${def.type}" (at ${loc.join('.')})`)
  }
}

const scalar = <T>(outcome: ScalarOutcome<T>, loc: Loc): OutcomeV1 =>
  outcome.ok ? ok(outcome.value) : fail(v1Error(outcome.type, loc))

const checksOf = (def: Def) => ((def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>).map((check) => check._zod.def)
const checkValue = (def: Def, name: string, key: keyof CheckDef, inclusive?: boolean) =>
  checksOf(def).find((check) => check.check === name && (inclusive === undefined || check.inclusive === inclusive))?.[
    key
  ] as number | undefined

/** `constr(min_length=, max_length=)`: `str_validator`, then the length in code points. */
function validateStr(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
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
function validateInt(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const number = intV1(input)
  if (!number.ok) return fail(v1Error(number.type, loc))
  const [ge, le] = [checkValue(def, 'greater_than', 'value', true), checkValue(def, 'less_than', 'value', true)]
  if (ge !== undefined && number.value < ge) return fail(v1Error('value_error.number.not_ge', loc, { limit_value: ge }))
  if (le !== undefined && number.value > le) return fail(v1Error('value_error.number.not_le', loc, { limit_value: le }))
  return ok(number.value)
}

/** `enum_member_validator` of a `str` Enum: a value equal to a member's. */
function validateEnum(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const values = Object.values(def.entries as Record<string, string>)
  if (typeof input === 'string' && values.includes(input)) return ok(input)
  return fail(v1Error('type_error.enum', loc, { enum_values: values }))
}

/** A list: `conlist`'s length check runs first (a pre-validator), and refuses the list as a whole. */
function validateList(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  if (!Array.isArray(input)) return fail(v1Error('type_error.list', loc))
  const maximum = checkValue(def, 'max_length', 'maximum')
  if (maximum !== undefined && input.length > maximum)
    return fail(v1Error('value_error.list.max_items', loc, { limit_value: maximum }))
  const element = (def as unknown as { element: Schema }).element
  const values: unknown[] = []
  const errors: PydanticV1Error[] = []
  input.forEach((item, index) => {
    const outcome = validateV1(element, item, [...loc, index])
    if (outcome.ok) values.push(outcome.value)
    else errors.push(...outcome.errors)
  })
  return errors.length ? fail(...errors) : ok(values)
}

/** `BaseModel.validate`: a dict, or anything `dict()` takes; fields in declaration order, extras ignored. */
function validateModel(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  const items = pythonDictItems(input)
  if (!items) return fail(v1Error('type_error.dict', loc))
  if (items.some(([key]) => typeof key !== 'string')) return fail(v1Error('type_error', loc))
  const byName = new Map(items as Array<[string, PyValue]>)
  const shape = (def as unknown as { shape: Record<string, Schema> }).shape
  const value: Record<string, unknown> = {}
  const errors: PydanticV1Error[] = []
  for (const [name, field] of Object.entries(shape)) {
    const outcome = validateV1(field, byName.has(name) ? byName.get(name)! : MISSING, [...loc, name])
    if (outcome.ok) value[name] = outcome.value
    else errors.push(...outcome.errors)
  }
  return errors.length ? fail(...errors) : ok(value)
}

/** `Dict[str, Any]`: `dict()` of the input, every key through `str_validator` (at `__key__`). */
function validateDict(input: PyValue, loc: Loc): OutcomeV1 {
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

/**
 * NaN and infinities in a validated value (say, in `metadata`). pydantic 1 takes them, and a 422 never
 * echoes them, but FastAPI would store them and then fail to write its answer (500): the mock refuses the
 * request with these errors instead, once it would otherwise succeed (`decisions.md`, deliberate differences).
 */
export function nonFiniteV1(value: unknown, loc: Loc): PydanticV1Error[] {
  if (value instanceof PyFloat)
    return Number.isFinite(value.value) ? [] : [v1Error('value_error.number.not_finite_number', loc)]
  if (Array.isArray(value)) return value.flatMap((item, index) => nonFiniteV1(item, [...loc, index]))
  const entries = value instanceof PyDict ? [...value] : isPlainObject(value) ? Object.entries(value) : []
  return entries.flatMap(([key, item]) => nonFiniteV1(item, [...loc, key]))
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype

/** A zod default as a Python value: plain objects become dicts. */
function toPython(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map)) {
    return new PyDict(Object.entries(value as Record<string, PyValue>))
  }
  return value
}
