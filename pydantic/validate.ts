import type { z } from 'zod'
import { parseLaxBool } from '../python/lax-bool.js'
import { validatePythonInt } from '../python/lax-int.js'
import { expectedValues, pydanticError, type Loc, type PydanticError } from './errors.js'
import { PyDict, PyFloat, type PyValue } from '../python/value.js'
import { parseUuid } from '../python/uuid.js'

/** Marks an input that is absent, which pydantic tells apart from `None`. */
export const MISSING: unique symbol = Symbol('missing')
export type Input = PyValue | typeof MISSING

export interface ValidationSettings {
  /** The pydantic version, for the UUID message (profile setting). */
  pydantic: '2.12' | '2.13'
}

/** What validating one value gives: its Python value, or the errors (never both). */
export type Outcome = { ok: true; value: unknown } | { ok: false; errors: PydanticError[] }

const ok = (value: unknown): Outcome => ({ ok: true, value })
const fail = (...errors: PydanticError[]): Outcome => ({ ok: false, errors })

type Schema = z.core.$ZodType
type Def = Schema['_zod']['def'] & Record<string, unknown>

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
      return validateInt(schema, input, loc)
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

function validateString(schema: Schema, input: PyValue, loc: Loc): Outcome {
  if (typeof input !== 'string') return fail(pydanticError('string_type', loc, input))
  const { minLength, maxLength } = schema as unknown as { minLength: number | null; maxLength: number | null }
  // A plain `str` keeps a lone surrogate; a constrained one is read as UTF-8 first, which fails.
  if ((minLength != null || maxLength != null) && hasLoneSurrogate(input))
    return fail(pydanticError('string_unicode', loc, input))
  // pydantic counts characters as Python does: code points, not UTF-16 units.
  const length = codePointLength(input)
  if (minLength != null && length < minLength)
    return fail(pydanticError('string_too_short', loc, input, { min_length: minLength }))
  if (maxLength != null && length > maxLength)
    return fail(pydanticError('string_too_long', loc, input, { max_length: maxLength }))
  return ok(input)
}

function validateUuid(input: PyValue, loc: Loc, settings: ValidationSettings): Outcome {
  if (typeof input !== 'string') return fail(pydanticError('uuid_type', loc, input))
  if (hasLoneSurrogate(input)) return fail(pydanticError('string_unicode', loc, input))
  const parsed = parseUuid(input, settings.pydantic)
  return parsed.ok ? ok(parsed.value) : fail(pydanticError('uuid_parsing', loc, input, { error: parsed.error }))
}

function validateInt(schema: Schema, input: PyValue, loc: Loc): Outcome {
  if (typeof input === 'string' && hasLoneSurrogate(input)) return fail(pydanticError('string_unicode', loc, input))
  const parsed = validatePythonInt(input)
  if (!parsed.ok) return fail(pydanticError(parsed.type, loc, input))
  const { ge, le } = intBounds(schema._zod.def as Def)
  if (ge !== undefined && parsed.value < ge) return fail(pydanticError('greater_than_equal', loc, input, { ge }))
  if (le !== undefined && parsed.value > le) return fail(pydanticError('less_than_equal', loc, input, { le }))
  return ok(parsed.value)
}

/** pydantic-core `validate_bool` in lax mode. */
function validateBool(input: PyValue, loc: Loc): Outcome {
  if (typeof input === 'boolean') return ok(input)
  if (typeof input === 'string') {
    if (hasLoneSurrogate(input)) return fail(pydanticError('string_unicode', loc, input))
    const parsed = parseLaxBool(input)
    return parsed === undefined ? fail(pydanticError('bool_parsing', loc, input)) : ok(parsed)
  }
  const number =
    typeof input === 'number' || typeof input === 'bigint'
      ? Number(input)
      : input instanceof PyFloat && Number.isInteger(input.value)
        ? input.value
        : undefined
  if (number === undefined) return fail(pydanticError('bool_type', loc, input))
  return number === 0 || number === 1 ? ok(number === 1) : fail(pydanticError('bool_parsing', loc, input))
}

/** A `str` Enum in lax mode: a string equal to a member's value (no case folding, no stripping). */
function validateEnum(def: Def, input: PyValue, loc: Loc): Outcome {
  const values = Object.values(def.entries as Record<string, string>)
  if (typeof input === 'string' && values.includes(input)) return ok(input)
  return fail(pydanticError('enum', loc, input, { expected: expectedValues(values) }))
}

/**
 * A list, item by item. As in pydantic-core, the length limit is checked as items are
 * counted, and going past it replaces every item error with the one `too_long` error.
 */
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
  return errors.length ? fail(...errors) : ok(values)
}

type CheckDef = { check: string; maximum?: number; value?: number; inclusive?: boolean }
const checksOf = (def: Def) => ((def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>).map((check) => check._zod.def)

const maxLengthCheck = (def: Def): number | undefined =>
  checksOf(def).find((check) => check.check === 'max_length')?.maximum

/**
 * The bounds written on the schema (`.min()`, `.max()`), as pydantic's `ge`/`le`. zod's own
 * safe-integer range of `z.int()` is not one: a Python int has no such limit.
 */
function intBounds(def: Def): { ge?: number; le?: number } {
  const checks = checksOf(def)
  return {
    ge: checks.find((check) => check.check === 'greater_than' && check.inclusive)?.value,
    le: checks.find((check) => check.check === 'less_than' && check.inclusive)?.value,
  }
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

/**
 * Whether a string holds a surrogate that is not half of a pair. pydantic-core parses
 * strings as UTF-8 (ints, bools, UUIDs, constrained strings), which such a string is not.
 */
const hasLoneSurrogate = (text: string): boolean => /\p{Surrogate}/u.test(text)

export function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}
