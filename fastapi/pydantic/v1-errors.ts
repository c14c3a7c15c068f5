import type { Loc } from './errors.js'

/** A context value as `jsonable_encoder` writes it (enum members become their values). */
type CtxValue = string | number | bigint | readonly string[]
type Ctx = Record<string, CtxValue>

/**
 * One error of a pydantic 1 (FastAPI < 0.100) 422 `detail`, keys in `error_wrappers.error_dict`'s order:
 * `loc`, `msg`, `type`, then `ctx` when the exception carries any (its `__dict__`). No `input`, no `url`.
 */
export interface PydanticV1Error {
  loc: Loc
  msg: string
  type: string
  ctx?: Ctx
}

/**
 * pydantic 1.10's errors (`pydantic/errors.py`) the mock can raise, by their `type`: the error class's
 * `msg_template` formatted with its context. The type is `type_error`/`value_error` + `.` + the class's
 * `code` (or its lowercased name without `Error`).
 */
const TEMPLATES: Record<string, (ctx: Ctx) => string> = {
  'value_error.missing': () => 'field required',
  'type_error.none.not_allowed': () => 'none is not an allowed value',
  'type_error.integer': () => 'value is not a valid integer',
  'type_error.float': () => 'value is not a valid float',
  'type_error.bool': () => 'value could not be parsed to a boolean',
  'type_error.str': () => 'str type expected',
  'type_error.uuid': () => 'value is not a valid uuid',
  'type_error.list': () => 'value is not a valid list',
  'type_error.dict': () => 'value is not a valid dict',
  // A bare TypeError: `Model(**dict(pairs))` with a key that is not a string.
  type_error: () => 'keywords must be strings',
  'type_error.enum': (ctx) => `value is not a valid enumeration member; permitted: ${permitted(ctx)}`,
  'value_error.number.not_ge': (ctx) => `ensure this value is greater than or equal to ${ctx['limit_value']}`,
  'value_error.number.not_le': (ctx) => `ensure this value is less than or equal to ${ctx['limit_value']}`,
  'value_error.number.not_finite_number': () => 'ensure this value is a finite number',
  'value_error.any_str.min_length': (ctx) => `ensure this value has at least ${ctx['limit_value']} characters`,
  'value_error.any_str.max_length': (ctx) => `ensure this value has at most ${ctx['limit_value']} characters`,
  'value_error.list.min_items': (ctx) => `ensure this value has at least ${ctx['limit_value']} items`,
  'value_error.list.max_items': (ctx) => `ensure this value has at most ${ctx['limit_value']} items`,
}

/** `EnumMemberError.__str__`: the members' values as `repr` writes them, joined by `, `. */
const permitted = (ctx: Ctx) => (ctx['enum_values'] as readonly string[]).map(pythonStrRepr).join(', ')

/** `repr(str)`: single quotes unless the text holds a single quote and no double one. */
function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'"
  const escaped = text.replace(
    /[\\\n\r\t]/g,
    (char) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[char]!,
  )
  return quote + (quote === "'" ? escaped.replaceAll("'", "\\'") : escaped) + quote
}

/**
 * Builds a pydantic 1 error of `type` with its message.
 * @example v1Error('value_error.number.not_ge', ['query', 'limit'], { limit_value: 1 })
 */
export function v1Error(type: string, loc: Loc, ctx?: Ctx): PydanticV1Error {
  const template = TEMPLATES[type]
  if (!template) throw new Error(`No pydantic 1 message template for error type "${type}"`)
  const msg = template(ctx ?? {})
  return ctx ? { loc, msg, type, ctx } : { loc, msg, type }
}

/**
 * FastAPI 0.92's answer to a body `json.loads` refuses: the `JSONDecodeError` itself, wrapped at
 * `("body", pos)`. Its `str()` is the message with the position, and its `__dict__` (the ctx) holds
 * `msg`, `doc` (the decoded body), `pos`, `lineno`, `colno`.
 * @param doc the body's text as code points, `pos` an index into them.
 */
export function v1JsonDecodeError(
  msg: string,
  doc: readonly number[] | Uint32Array,
  docText: string,
  pos: number,
): PydanticV1Error {
  let lineno = 1
  let lastNewline = -1
  for (let i = 0; i < pos; i++) {
    if (doc[i] === 0x0a) lineno++, (lastNewline = i)
  }
  const colno = pos - lastNewline
  const ctx = { msg, doc: docText, pos, lineno, colno }
  return {
    loc: ['body', pos],
    msg: `${msg}: line ${lineno} column ${colno} (char ${pos})`,
    type: 'value_error.jsondecode',
    ctx,
  }
}
