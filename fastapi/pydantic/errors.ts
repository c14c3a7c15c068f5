import type { PyFloat, PyValue } from '../python/value.js'

/** A location as pydantic reports it: the source ("query", "path", "body"), then keys and indexes. */
export type Loc = Array<string | number>

/**
 * One error of a 422 `detail`, keys in pydantic-core's order: type, loc, msg, input, then
 * ctx only for error types that have a context.
 */
export interface PydanticError {
  type: string
  loc: Loc
  msg: string
  input: PyValue | undefined
  ctx?: Record<string, string | number | bigint | PyFloat>
}

type Ctx = Record<string, string | number | bigint>

/** pydantic-core's Python-mode message templates (types.rs), by error type. */
const TEMPLATES: Record<string, (ctx: Ctx) => string> = {
  missing: () => 'Field required',
  int_type: () => 'Input should be a valid integer',
  int_parsing: () => 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: () => 'Unable to parse input string as an integer, exceeded maximum size',
  int_from_float: () => 'Input should be a valid integer, got a number with a fractional part',
  finite_number: () => 'Input should be a finite number',
  float_type: () => 'Input should be a valid number',
  float_parsing: () => 'Input should be a valid number, unable to parse string as a number',
  greater_than_equal: (ctx) => `Input should be greater than or equal to ${ctx.ge}`,
  less_than_equal: (ctx) => `Input should be less than or equal to ${ctx.le}`,
  bool_type: () => 'Input should be a valid boolean',
  bool_parsing: () => 'Input should be a valid boolean, unable to interpret input',
  string_type: () => 'Input should be a valid string',
  string_unicode: () => 'Input should be a valid string, unable to parse raw data as a unicode string',
  string_too_short: (ctx) => `String should have at least ${ctx.min_length} character${plural(ctx.min_length)}`,
  string_too_long: (ctx) => `String should have at most ${ctx.max_length} character${plural(ctx.max_length)}`,
  dict_type: () => 'Input should be a valid dictionary',
  list_type: () => 'Input should be a valid list',
  model_attributes_type: () => 'Input should be a valid dictionary or object to extract fields from',
  uuid_type: () => 'UUID input should be a string, bytes or UUID object',
  uuid_parsing: (ctx) => `Input should be a valid UUID, ${ctx.error}`,
  enum: (ctx) => `Input should be ${ctx.expected}`,
  too_short: (ctx) =>
    `${ctx.field_type} should have at least ${ctx.min_length} item${plural(ctx.min_length)} after validation, not ${ctx.actual_length}`,
  too_long: (ctx) =>
    `${ctx.field_type} should have at most ${ctx.max_length} item${plural(ctx.max_length)} after validation, not ${ctx.actual_length}`,
}

const plural = (count: unknown) => (count === 1 ? '' : 's')

/**
 * pydantic-core's `expected` of an `enum` error: the values' reprs, `, `-separated, ` or ` before the last.
 * @example expectedValues(['a', 'b', 'c']) // "'a', 'b' or 'c'"
 */
export function expectedValues(values: readonly string[]): string {
  const reprs = values.map((value) => `'${value}'`)
  return reprs.length < 2 ? (reprs[0] ?? '') : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`
}

/**
 * Builds a pydantic error of `type` with its message.
 * @example pydanticError('greater_than_equal', ['query', 'limit'], '0', { ge: 1 })
 */
export function pydanticError(
  type: keyof typeof TEMPLATES & string,
  loc: Loc,
  input: PyValue | undefined,
  ctx?: Ctx,
): PydanticError {
  const template = TEMPLATES[type]
  if (!template) throw new Error(`No pydantic message template for error type "${type}"`)
  const msg = template(ctx ?? {})
  return ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input }
}
