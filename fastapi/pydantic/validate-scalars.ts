import { parseLaxBool } from '../python/lax-bool.js'
import { pythonFloat } from '../python/float.js'
import { validatePythonInt } from '../python/lax-int.js'
import { PyFloat, type PyValue } from '../python/value.js'
import { parseUuid } from '../python/uuid.js'
import { expectedValues, pydanticError, type Loc } from './errors.js'
import { type Def, fail, ok, type Outcome, type Schema, type ValidationSettings } from './outcome.js'

export function validateString(schema: Schema, input: PyValue, loc: Loc): Outcome {
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

export function validateUuid(input: PyValue, loc: Loc, settings: ValidationSettings): Outcome {
  if (typeof input !== 'string') return fail(pydanticError('uuid_type', loc, input))
  if (hasLoneSurrogate(input)) return fail(pydanticError('string_unicode', loc, input))
  const parsed = parseUuid(input, settings.pydantic)
  return parsed.ok ? ok(parsed.value) : fail(pydanticError('uuid_parsing', loc, input, { error: parsed.error }))
}

export function validateInt(schema: Schema, input: PyValue, loc: Loc): Outcome {
  if (typeof input === 'string' && hasLoneSurrogate(input)) return fail(pydanticError('string_unicode', loc, input))
  const parsed = validatePythonInt(input)
  if (!parsed.ok) return fail(pydanticError(parsed.type, loc, input))
  const { ge, le } = intBounds(schema._zod.def as Def)
  if (ge !== undefined && parsed.value < ge) return fail(pydanticError('greater_than_equal', loc, input, { ge }))
  if (le !== undefined && parsed.value > le) return fail(pydanticError('less_than_equal', loc, input, { le }))
  return ok(parsed.value)
}

/**
 * A `float` in lax mode: numbers, bools and numeric strings, as Python's `float()` takes them. pydantic takes
 * NaN and infinities, which FastAPI could not write back: the mock refuses them (`finite_number`).
 */
export function validateFloat(schema: Schema, input: PyValue, loc: Loc): Outcome {
  const value = pythonFloat(input)
  if (value === undefined)
    return fail(pydanticError(typeof input === 'string' ? 'float_parsing' : 'float_type', loc, input))
  if (!Number.isFinite(value)) return fail(pydanticError('finite_number', loc, input))
  const { ge, le } = intBounds(schema._zod.def as Def)
  if (ge !== undefined && value < ge) return fail(floatBoundError('greater_than_equal', loc, input, 'ge', ge))
  if (le !== undefined && value > le) return fail(floatBoundError('less_than_equal', loc, input, 'le', le))
  return ok(new PyFloat(value))
}

/**
 * pydantic-core holds a `float` field's bounds as floats: its ctx writes `{"le":2.0}` where its message says
 * `2` (an `int` field's ctx keeps `2`).
 */
function floatBoundError(
  type: 'greater_than_equal' | 'less_than_equal',
  loc: Loc,
  input: PyValue,
  name: string,
  bound: number,
) {
  return { ...pydanticError(type, loc, input, { [name]: bound }), ctx: { [name]: new PyFloat(bound) } }
}

/** pydantic-core `validate_bool` in lax mode. */
export function validateBool(input: PyValue, loc: Loc): Outcome {
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
export function validateEnum(def: Def, input: PyValue, loc: Loc): Outcome {
  const members = enumMembers(def)
  if (typeof input === 'string' && members.set.has(input)) return ok(input)
  return fail(pydanticError('enum', loc, input, { expected: expectedValues(members.values) }))
}

/** An enum's values, in order and as a set, read once per schema: a served document's enum may hold thousands. */
const membersByDef = new WeakMap<Def, { values: string[]; set: ReadonlySet<string> }>()
function enumMembers(def: Def): { values: string[]; set: ReadonlySet<string> } {
  let members = membersByDef.get(def)
  if (!members) {
    const values = Object.values(def.entries as Record<string, string>)
    membersByDef.set(def, (members = { values, set: new Set(values) }))
  }
  return members
}

/**
 * A list, item by item. As in pydantic-core, the length limit is checked as items are
 * counted, and going past it replaces every item error with the one `too_long` error.
 */
type CheckDef = { check: string; minimum?: number; maximum?: number; value?: number; inclusive?: boolean }
const checksOf = (def: Def) => ((def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>).map((check) => check._zod.def)

export const minLengthCheck = (def: Def): number | undefined =>
  checksOf(def).find((check) => check.check === 'min_length')?.minimum

export const maxLengthCheck = (def: Def): number | undefined =>
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

/**
 * Whether a string holds a surrogate that is not half of a pair. pydantic-core parses
 * strings as UTF-8 (ints, bools, UUIDs, constrained strings), which such a string is not.
 */
export const hasLoneSurrogate = (text: string): boolean => /\p{Surrogate}/u.test(text)

export function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}
