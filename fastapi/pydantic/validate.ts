import { PyDict, PyFloat, type PyValue } from '../python/value.js'
import { pydanticError, type Loc, type PydanticError } from './errors.js'
import { type Def, fail, ok, type Outcome, type Schema, type ValidationSettings } from './outcome.js'
import {
  maxLengthCheck,
  validateBool,
  validateEnum,
  validateFloat,
  validateInt,
  minLengthCheck,
  validateString,
  validateUuid,
} from './validate-scalars.js'

/** Marks an input that is absent, which pydantic tells apart from `None`. */
export const MISSING: unique symbol = Symbol('missing')
export type Input = PyValue | typeof MISSING

/**
 * Validates a value against a zod schema the way pydantic v2 validates the equivalent
 * annotation in Python (lax) mode: the same coercions, the same error types, messages,
 * `input` and `ctx`, in the same order. The zod schemas in `model/requests.ts` are thus the
 * single description of each parameter and body; this is the only code that knows pydantic.
 *
 * Supported: objects (models), string (with min/max length; `z.uuid()` as `UUID`), int
 * (with inclusive bounds), boolean, `str` enums, array (with max length), record (`Dict[str, Any]`),
 * unknown, and the optional/nullable/default wrappers.
 *
 * @param missingInput what a `missing` error echoes: `null` for a parameter, the enclosing
 *   dict for a model field.
 */
export function validatePython(
  schema: Schema,
  input: Input,
  loc: Loc,
  settings: ValidationSettings,
  missingInput: PyValue = null,
): Outcome {
  const def = schema._zod.def as Def
  switch (def.type) {
    case 'default':
      return input === MISSING
        ? ok(toPython((def as unknown as { defaultValue: unknown }).defaultValue))
        : validatePython(inner(def), input, loc, settings, missingInput)
    case 'optional':
      return input === MISSING ? ok(null) : validatePython(inner(def), input, loc, settings, missingInput)
    case 'nullable':
      return input === null ? ok(null) : validatePython(inner(def), input, loc, settings, missingInput)
  }
  if (input === MISSING) return fail(pydanticError('missing', loc, missingInput))
  switch (def.type) {
    case 'string':
      return def.format === 'uuid' ? validateUuid(input, loc, settings) : validateString(schema, input, loc)
    case 'number':
      return def.format === undefined ? validateFloat(schema, input, loc) : validateInt(schema, input, loc)
    case 'boolean':
      return validateBool(input, loc)
    case 'enum':
      return validateEnum(def, input, loc)
    case 'array':
      return validateList(def, input, loc, settings)
    case 'object':
      return validateModel(def, input, loc, settings)
    case 'record':
      return validateDict(input, loc)
    case 'unknown':
    case 'any':
      return ok(input)
    default:
      throw new Error(`validatePython does not support zod type "${def.type}" (at ${loc.join('.')})`)
  }
}

const inner = (def: Def) => (def as unknown as { innerType: Schema }).innerType

function validateList(def: Def, input: PyValue, loc: Loc, settings: ValidationSettings): Outcome {
  if (!Array.isArray(input)) return fail(pydanticError('list_type', loc, input))
  const element = (def as unknown as { element: Schema }).element
  const maxLength = maxLengthCheck(def)
  const values: unknown[] = []
  const errors: PydanticError[] = []
  for (const [index, item] of input.entries()) {
    const outcome = validatePython(element, item, [...loc, index], settings)
    if (maxLength !== undefined && index + 1 > maxLength) {
      return fail(
        pydanticError('too_long', loc, input, {
          field_type: 'List',
          max_length: maxLength,
          actual_length: input.length,
        }),
      )
    }
    if (outcome.ok) values.push(outcome.value)
    else errors.push(...outcome.errors)
  }
  if (errors.length) return fail(...errors)
  const minLength = minLengthCheck(def)
  if (minLength !== undefined && values.length < minLength) {
    const ctx = { field_type: 'List', min_length: minLength, actual_length: values.length }
    return fail(pydanticError('too_short', loc, input, ctx))
  }
  return ok(values)
}

/** A model validated from a dict (Python mode, `from_attributes`): fields in declaration order, extras ignored. */
function validateModel(def: Def, input: PyValue, loc: Loc, settings: ValidationSettings): Outcome {
  if (!(input instanceof PyDict)) return fail(pydanticError('model_attributes_type', loc, input))
  const shape = (def as unknown as { shape: Record<string, Schema> }).shape
  const value: Record<string, unknown> = {}
  const errors: PydanticError[] = []
  for (const [name, field] of Object.entries(shape)) {
    const outcome = validatePython(
      field,
      input.has(name) ? (input.get(name) as PyValue) : MISSING,
      [...loc, name],
      settings,
      input,
    )
    if (outcome.ok) value[name] = outcome.value
    else errors.push(...outcome.errors)
  }
  return errors.length ? fail(...errors) : ok(value)
}

/**
 * `Dict[str, Any]`. pydantic accepts NaN and infinities here, but FastAPI could then not
 * write the stored value back (it would answer 500); the mock refuses them up front with
 * `finite_number` at the value's own location (`decisions.md`, deliberate differences).
 */
function validateDict(input: PyValue, loc: Loc): Outcome {
  if (!(input instanceof PyDict)) return fail(pydanticError('dict_type', loc, input))
  const errors = nonFiniteNumbers(input, loc)
  return errors.length ? fail(...errors) : ok(input)
}

function nonFiniteNumbers(value: PyValue, loc: Loc): PydanticError[] {
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? [] : [pydanticError('finite_number', loc, value)]
  if (Array.isArray(value)) return value.flatMap((item, index) => nonFiniteNumbers(item, [...loc, index]))
  if (value instanceof PyDict) return [...value].flatMap(([key, item]) => nonFiniteNumbers(item, [...loc, key]))
  return []
}

/** A zod default as a Python value: plain objects become dicts. */
function toPython(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map)) {
    return new PyDict(Object.entries(value as Record<string, PyValue>))
  }
  return value
}

export type { Outcome, ValidationSettings } from './outcome.js'
export { codePointLength } from './validate-scalars.js'
