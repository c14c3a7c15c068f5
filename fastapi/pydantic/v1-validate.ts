import type { z } from 'zod'
import { PyDict, type PyValue } from '../python/value.js'
import type { Loc } from './errors.js'
import {
  checkValue,
  fail,
  ok,
  validateDict,
  validateEnum,
  validateFloat,
  validateInt,
  validateStr,
  type Def,
  type OutcomeV1,
} from './v1-constrained.js'
import { v1Error, type PydanticV1Error } from './v1-errors.js'
import { pythonDictItems } from './v1-dict.js'
import { boolV1, uuidV1, type ScalarOutcome } from './v1-scalars.js'
import { MISSING, type Input } from './validate.js'

export type { OutcomeV1 }

type Schema = z.core.$ZodType

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
      return def.format === undefined ? validateFloat(def, input, loc) : validateInt(def, input, loc)
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

/** A list: `conlist`'s length check runs first (a pre-validator), and refuses the list as a whole. */
function validateList(def: Def, input: PyValue, loc: Loc): OutcomeV1 {
  if (!Array.isArray(input)) return fail(v1Error('type_error.list', loc))
  const maximum = checkValue(def, 'max_length', 'maximum')
  if (maximum !== undefined && input.length > maximum)
    return fail(v1Error('value_error.list.max_items', loc, { limit_value: maximum }))
  const minimum = checkValue(def, 'min_length', 'minimum')
  if (minimum !== undefined && input.length < minimum)
    return fail(v1Error('value_error.list.min_items', loc, { limit_value: minimum }))
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

/** A zod default as a Python value: plain objects become dicts. */
function toPython(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map)) {
    return new PyDict(Object.entries(value as Record<string, PyValue>))
  }
  return value
}
