/**
 * The body Starlette's `JSONResponse` writes: `json.dumps(jsonable_encoder(content),
 * ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))`.
 */
import { pythonFloatRepr } from './float.js'
import { PyDict, PyFloat } from './value.js'

/**
 * Encodes a value exactly as FastAPI would put it on the wire.
 *
 * Accepts {@link PyValue}s and the plain objects and arrays the mock builds (own enumerable
 * string keys in JS order; `undefined` properties are left out). A JS `number` that is
 * integral is a Python `int` (`-0` → `0`); any other is a `float`, written like
 * `repr(float)`: `1.5`, `1e-05`, and `100.0` for `new PyFloat(100)`.
 *
 * @note Two deliberate differences from FastAPI, which answers 500 in both cases: a
 * non-finite float is written as the JSON string `"NaN"`, `"Infinity"` or `"-Infinity"`
 * (`allow_nan=False` raises), and a lone surrogate is written as a `\udXXX` escape (Python
 * fails to encode it as UTF-8).
 * @throws {TypeError} for `undefined` outside an object property, functions, symbols, class
 * instances other than `PyFloat`/`PyDict`/arrays, and circular references.
 * @example
 * encodePythonJson({ detail: [{ loc: ['body', 0], input: new PyFloat(1e16) }] })
 * // '{"detail":[{"loc":["body",0],"input":1e+16}]}'
 */
export function encodePythonJson(value: unknown): string {
  if (isPlainJson(value)) return JSON.stringify(value)
  const out: string[] = []
  const open: OpenContainer[] = []
  const ancestors = new Set<object>()
  const write = (member: unknown): void => {
    const container = openContainer(member, ancestors)
    if (container === undefined) {
      out.push(encodeScalar(member))
      return
    }
    out.push(container.entries === undefined ? '[' : '{')
    open.push(container)
  }
  write(value)
  // Explicit stack instead of recursion: any depth encodes without touching the call stack.
  for (let container = open.at(-1); container !== undefined; container = open.at(-1)) {
    if (container.next === container.values.length) {
      out.push(container.entries === undefined ? ']' : '}')
      ancestors.delete(container.source)
      open.pop()
      continue
    }
    const index = container.next++
    if (index > 0) out.push(',')
    if (container.entries !== undefined) out.push(`${JSON.stringify(container.entries[index])}:`)
    write(container.values[index])
  }
  return out.join('')
}

/**
 * Whether `JSON.stringify` writes `value` exactly as Python would, which holds for plain
 * JSON data: strings, booleans, null, safe integers, and arrays and plain objects of them.
 * Floats (`PyFloat` or not) and larger integers are written differently, and anything else
 * needs the checks of the full encoder. Past a modest depth the full encoder takes over,
 * so neither this check nor `JSON.stringify` can exhaust the stack.
 */
export const isPlainJson = (value: unknown): boolean => stringifiesAsPython(value, 0)

function stringifiesAsPython(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isSafeInteger(value)
    case 'object': {
      if (value === null) return true
      if (depth === MAX_STRINGIFY_DEPTH) return false
      if (Array.isArray(value)) return value.every((item) => stringifiesAsPython(item, depth + 1))
      const prototype: unknown = Object.getPrototypeOf(value)
      if (prototype !== Object.prototype && prototype !== null) return false
      if ('toJSON' in value) return false
      for (const key in value) {
        const member = (value as Record<string, unknown>)[key]
        if (member !== undefined && !stringifiesAsPython(member, depth + 1)) return false
      }
      return true
    }
    default:
      return false
  }
}

const MAX_STRINGIFY_DEPTH = 32

/** An array or object being written: its members, and how many are done. */
interface OpenContainer {
  source: object
  /** The keys for an object, `undefined` for an array. */
  entries: string[] | undefined
  values: unknown[]
  next: number
}

/** The container to write for `value`, or `undefined` if it is a scalar. */
function openContainer(value: unknown, ancestors: Set<object>): OpenContainer | undefined {
  if (typeof value !== 'object' || value === null || value instanceof PyFloat) return undefined
  if (ancestors.has(value)) throw new TypeError('Circular reference detected')
  const container = membersOf(value)
  ancestors.add(value)
  return container
}

function membersOf(value: object): OpenContainer {
  if (Array.isArray(value)) {
    return { source: value, entries: undefined, values: value, next: 0 }
  }
  const entries: string[] = []
  const values: unknown[] = []
  for (const [key, member] of objectEntries(value)) {
    if (member === undefined) continue
    entries.push(key)
    values.push(member)
  }
  return { source: value, entries, values, next: 0 }
}

function objectEntries(value: object): Iterable<[string, unknown]> {
  if (value instanceof PyDict) return value.entries()
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === Object.prototype || prototype === null) return Object.entries(value)
  const typeName = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object'
  throw new TypeError(`Object of type ${typeName} is not JSON serializable`)
}

/** `null`, booleans, strings, ints and floats (a `PyFloat`), as {@link encodePythonJson} writes them. */
export function encodeScalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // Identical to CPython's `encode_basestring` (`ensure_ascii=False`): `\"`, `\\`, the
      // short escapes, other C0 controls as lowercase `\u00xx`, everything else raw. On top,
      // JSON.stringify escapes lone surrogates, which Python could not encode at all.
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'bigint':
      return value.toString()
    case 'number':
      return encodeNumber(value)
    case 'object':
      if (value === null) return 'null'
      if (value instanceof PyFloat) return encodeFloat(value.value)
  }
  throw new TypeError(`Object of type ${typeof value} is not JSON serializable`)
}

/** An integral JS number is a Python int, any other a float. */
function encodeNumber(value: number): string {
  if (!Number.isInteger(value)) return encodeFloat(value)
  // Past 2^53 `String` switches to exponent notation (`1e+21`); Python ints never do.
  return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString()
}

/** `repr(float)`; non-finite values become JSON strings (see {@link encodePythonJson}). */
function encodeFloat(value: number): string {
  if (Number.isNaN(value)) return '"NaN"'
  if (value === Infinity) return '"Infinity"'
  if (value === -Infinity) return '"-Infinity"'
  return pythonFloatRepr(value)
}
