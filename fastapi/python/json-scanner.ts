/**
 * The scanner of CPython 3.11's `Modules/_json.c` (`scan_once_unicode`, `_parse_object_unicode`,
 * `_parse_array_unicode`) driven by `JSONDecoder.decode` from `Lib/json/decoder.py`, over the
 * code points of the decoded text.
 */
import { JsonDecodeError, UnparseableJsonError } from './json-errors.js'
import { matchJsonNumber } from './json-number.js'
import { scanJsonString } from './json-scanstring.js'
import { PythonStringBuilder } from './string-builder.js'
import { PyDict, PyFloat, type PyValue } from './value.js'

/**
 * How deep arrays and objects may nest before decoding fails like CPython's `RecursionError`.
 *
 * @note An approximation: CPython counts the scanner's nesting against the interpreter's
 * recursion limit (1000 by default) together with the Python frames already on the stack, so
 * the real cut-off is a little lower (about 990 at the top level of a script, fewer inside an
 * ASGI app). Bodies nested between that and this depth get a different answer.
 */
export const MAX_JSON_DEPTH = 1000

const QUOTE = 0x22
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** `JSONDecoder.decode`'s `WHITESPACE = [ \t\n\r]*`, also the C scanner's `IS_WHITESPACE`. */
const isWhitespace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/** The named constants `scan_once_unicode` recognises, by first character. */
const CONSTANTS: ReadonlyMap<number, readonly [string, () => PyValue]> = new Map([
  [0x6e, ['null', () => null]],
  [0x74, ['true', () => true]],
  [0x66, ['false', () => false]],
  [0x4e, ['NaN', () => new PyFloat(NaN)]],
  [0x49, ['Infinity', () => new PyFloat(Infinity)]],
  [0x2d, ['-Infinity', () => new PyFloat(-Infinity)]],
] as const)

/** An array or object still open while the scanner reads its members. */
type OpenContainer = { kind: 'array'; items: PyValue[] } | { kind: 'object'; dict: PyDict; key: string }

/** Returned instead of a value when a non-empty container was opened. */
const OPENED: unique symbol = Symbol('opened')

/**
 * The C scanner, with the recursion of `scan_once_unicode` → `_parse_array_unicode` /
 * `_parse_object_unicode` turned into an explicit stack, so that no body can overflow the JS
 * call stack.
 */
export class JsonScanner {
  readonly #text: Uint32Array
  readonly #builder = new PythonStringBuilder()
  /** The containers being filled, innermost last. */
  readonly #open: OpenContainer[] = []
  /** The index after the last thing read (`*next_idx_ptr` in C). */
  #next = 0

  /** `maxDepth`: where nesting fails (a state file nests the API's records a few levels deeper). */
  constructor(
    text: Uint32Array,
    private readonly maxDepth = MAX_JSON_DEPTH,
  ) {
    this.#text = text
  }

  /** `JSONDecoder.decode`: skip whitespace, read one term, allow only whitespace after it. */
  decodeDocument(): PyValue {
    const value = this.#scanTerm(this.#skipWhitespace(0))
    const end = this.#skipWhitespace(this.#next)
    if (end !== this.#text.length) throw new JsonDecodeError('Extra data', end)
    return value
  }

  /** `scan_once_unicode` at `idx`, including everything nested inside the term. */
  #scanTerm(idx: number): PyValue {
    for (;;) {
      let value = this.#startTerm(idx)
      idx = this.#next
      if (value === OPENED) continue
      // Hand the finished term to its container; close every container that ends here.
      for (;;) {
        const container = this.#open.at(-1)
        if (container === undefined) return value
        const closed = this.#addMember(container, value)
        idx = this.#next
        if (closed === undefined) break
        this.#open.pop()
        value = closed
      }
    }
  }

  /** One term at `idx`, or {@link OPENED}; sets `#next` after what was read. */
  #startTerm(idx: number): PyValue | typeof OPENED {
    const c = this.#text[idx]
    if (c === OPEN_BRACKET) return this.#startArray(idx)
    if (c === OPEN_BRACE) return this.#startObject(idx)
    return this.#scanScalar(idx)
  }

  /** `_parse_array_unicode` up to its first value. */
  #startArray(idx: number): PyValue[] | typeof OPENED {
    this.#enterContainer()
    const first = this.#skipWhitespace(idx + 1)
    if (this.#text[first] === CLOSE_BRACKET) {
      this.#next = first + 1
      return []
    }
    this.#open.push({ kind: 'array', items: [] })
    this.#next = first
    return OPENED
  }

  /** `_parse_object_unicode` up to its first value. */
  #startObject(idx: number): PyDict | typeof OPENED {
    this.#enterContainer()
    const first = this.#skipWhitespace(idx + 1)
    if (this.#text[first] === CLOSE_BRACE) {
      this.#next = first + 1
      return new PyDict()
    }
    const key = this.#scanPropertyName(first)
    this.#open.push({ kind: 'object', dict: new PyDict(), key })
    return OPENED
  }

  /** `_Py_EnterRecursiveCall`, approximated by {@link MAX_JSON_DEPTH}. */
  #enterContainer(): void {
    if (this.#open.length + 1 > this.maxDepth) {
      throw new UnparseableJsonError('maximum recursion depth exceeded while decoding JSON')
    }
  }

  /** A string, named constant or number at `idx`; sets `#next` after it. */
  #scanScalar(idx: number): PyValue {
    const text = this.#text
    // Past the end, CPython raises StopIteration(idx): "Expecting value" in `raw_decode`.
    if (idx >= text.length) throw new JsonDecodeError('Expecting value', idx)
    const c = text[idx] as number
    if (c === QUOTE) {
      const { value, next } = scanJsonString(text, idx + 1, this.#builder)
      this.#next = next
      return value
    }
    const constant = this.#matchConstant(idx, c)
    if (constant !== undefined) return constant
    const number = matchJsonNumber(text, idx)
    if (number === null) throw new JsonDecodeError('Expecting value', idx)
    this.#next = number.next
    return number.value
  }

  /** `null`, `true`, `false`, `NaN`, `Infinity` or `-Infinity` spelled out in full at `idx`. */
  #matchConstant(idx: number, c: number): PyValue | undefined {
    const entry = CONSTANTS.get(c)
    if (entry === undefined) return undefined
    const [word, make] = entry
    if (idx + word.length > this.#text.length) return undefined
    for (let k = 1; k < word.length; k++) {
      if (this.#text[idx + k] !== word.charCodeAt(k)) return undefined
    }
    this.#next = idx + word.length
    return make()
  }

  /**
   * Stores `value` in `container`, then reads the `,` or closing bracket after it (from
   * `#next`, the end of `value`).
   *
   * @returns the closed container's value if it ended, `undefined` if another member follows
   * (with `#next` at that member's value).
   */
  #addMember(container: OpenContainer, value: PyValue): PyValue | undefined {
    const isArray = container.kind === 'array'
    if (isArray) container.items.push(value)
    else container.dict.set(container.key, value)
    const after = this.#skipWhitespace(this.#next)
    if (this.#text[after] === (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
      this.#next = after + 1
      return isArray ? container.items : container.dict
    }
    if (this.#text[after] !== COMMA) throw new JsonDecodeError("Expecting ',' delimiter", after)
    const member = this.#skipWhitespace(after + 1)
    if (isArray) {
      // No trailing-comma check in 3.11 either: `[1,]` fails at the `]` as "Expecting value".
      this.#next = member
      return undefined
    }
    // No trailing-comma check in 3.11: `{"a": 1,}` fails below at the `}`.
    container.key = this.#scanPropertyName(member)
    return undefined
  }

  /** `"key"`, whitespace, `:`, whitespace; sets `#next` to the start of the value. */
  #scanPropertyName(idx: number): string {
    if (this.#text[idx] !== QUOTE) {
      throw new JsonDecodeError('Expecting property name enclosed in double quotes', idx)
    }
    const { value: key, next } = scanJsonString(this.#text, idx + 1, this.#builder)
    const colon = this.#skipWhitespace(next)
    if (this.#text[colon] !== COLON) throw new JsonDecodeError("Expecting ':' delimiter", colon)
    this.#next = this.#skipWhitespace(colon + 1)
    return key
  }

  #skipWhitespace(idx: number): number {
    while (isWhitespace(this.#text[idx])) idx++
    return idx
  }
}
