import { z } from 'zod'
import { TimeSlice } from '../time-slice.js'
import type { WorldContents } from '../world.js'
import { decodeJsonBody } from '../../fastapi/python/json-decode.js'
import type { PyValue } from '../../fastapi/python/value.js'
import {
  findContradictions,
  originOf,
  parseState,
  refuseContradictions,
  STATE_FORMAT,
  STATE_JSON_DEPTH,
  StateFile,
  toPlain,
  type WorldState,
} from './index.js'

/**
 * {@link parseState}, giving the event loop back every few milliseconds, so that importing a
 * large state (seconds of work) never holds up other requests. Same
 * result, same errors: the document is split into its records by a quick scan of its
 * structure, and each record is decoded with the Python decoder and validated on its own,
 * slice by slice. A state that is not a well-formed state file of the usual shape (broken JSON,
 * records that do not fit the schemas, a duplicated key, nesting past 64) is handed to
 * `parseState` whole, for its exact message: only such a state is read in one go.
 * @throws StateError saying what is wrong and where (at most five problems listed).
 * @example const state = await readState(await request.text())
 */
export async function readState(text: string): Promise<WorldState> {
  const slice = new TimeSlice()
  const state = await readInSlices(text, slice)
  lastPath = state === undefined ? 'whole' : 'sliced'
  if (state === undefined) return parseState(text)
  const steps = findContradictions(state.contents)
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      refuseContradictions(step.value)
      return state
    }
    if (slice.due()) await slice.yield()
  }
}

let lastPath: 'sliced' | 'whole' | undefined

/** How the last {@link readState} read its state: in slices, or whole by `parseState` (what its test checks). */
export const lastReadPath = (): 'sliced' | 'whole' | undefined => lastPath

/** The header of a state file, its records checked apart. */
const StateHeader = StateFile.extend({
  world: z.object(
    Object.fromEntries(Object.keys(StateFile.shape.world.shape).map((name) => [name, z.array(z.unknown())])),
  ),
})
/** The schema of one record of each of the world's arrays. */
const RECORD_SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(StateFile.shape.world.shape).map(([name, array]) => [name, array.element]),
)

/** Nesting deeper than this anywhere is left to the whole decoder (its depth limit counts from the top). */
const MAX_SCANNED_DEPTH = 64

/** Raised by the scan for anything it leaves to {@link parseState}. */
class Unusual extends Error {}

/** The state, read and validated in slices; `undefined` when something is wrong or unusual. */
async function readInSlices(text: string, slice: TimeSlice): Promise<WorldState | undefined> {
  let top: Document
  try {
    const steps = new Scanner(text).document()
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        top = step.value
        break
      }
      if (slice.due()) await slice.yield()
    }
  } catch (error) {
    if (error instanceof Unusual) return undefined
    throw error
  }
  const decode = (span: Span, key: string | undefined) => {
    const value = decodeSpan(text, span)
    return key === 'value_metadata' ? value : toPlain(value)
  }
  // Each record is decoded and validated at once: only the validated copy is kept.
  // Without a prototype: a member named `__proto__` is a member, as Object.fromEntries makes it in parseState.
  const plain: Record<string, unknown> = Object.create(null)
  try {
    for (const [key, value] of top) {
      if (!(value instanceof Map)) {
        plain[key] = decode(value, key)
        continue
      }
      const world: Record<string, unknown> = Object.create(null)
      for (const [name, member] of value) {
        if (!('records' in member)) {
          world[name] = decode(member, name)
          continue
        }
        const schema = Object.hasOwn(RECORD_SCHEMAS, name) ? RECORD_SCHEMAS[name] : undefined
        const records: unknown[] = (world[name] = [])
        for (const span of member.records) {
          if (slice.due()) await slice.yield()
          const record = decode(span, undefined)
          if (!schema) continue // a member the schema leaves out: decoded (it must be JSON), not kept
          const result = schema.safeParse(record)
          if (!result.success) return undefined
          records.push(result.data)
        }
      }
      plain[key] = world
    }
  } catch (error) {
    if (error instanceof Unusual) return undefined
    throw error
  }
  if (plain.format !== STATE_FORMAT) return undefined
  const header = StateHeader.safeParse(plain)
  if (!header.success) return undefined
  const { world, documented } = header.data
  return { ...originOf(header.data), contents: world as unknown as WorldContents, ...(documented && { documented }) }
}

/** Where a value lies in the text: [start, end). */
type Span = readonly [number, number]
/** Where each element of an array lies. */
type Records = { readonly records: Span[] }
/** The top-level members: where each lies, or for `world` its members (for an array, where each record lies). */
type Document = Map<string, Span | Map<string, Span | Records>>

const utf8 = new TextEncoder()

/** One value of the text, by the Python decoder (as `parseState` decodes the whole). */
function decodeSpan(text: string, [start, end]: Span): PyValue {
  const decoded = decodeJsonBody(utf8.encode(text.slice(start, end)), STATE_JSON_DEPTH)
  if (!decoded.ok) throw new Unusual()
  return decoded.value
}

/**
 * The structure of a state file, found without decoding it: the top-level object's members,
 * the `world` object's members, and where each record of the world's arrays lies. It checks
 * only what it must to find those places; their contents are decoded apart. Anything it does
 * not expect throws {@link Unusual}.
 */
class Scanner {
  #at = 0
  constructor(readonly text: string) {}

  /** The top-level members; pauses after every record (a caller may give the event loop back there). */
  *document(): Generator<void, Document> {
    const members = yield* this.#object<Span | Map<string, Span | Records>>((key) =>
      key === 'world' && this.#peek() === '{' ? this.#world() : this.#scalar(),
    )
    if (this.#skipSpace() !== this.text.length) throw new Unusual()
    return members
  }

  *#world(): Generator<void, Map<string, Span | Records>> {
    return yield* this.#object<Span | Records>(() => (this.#peek() === '[' ? this.#array() : this.#scalar()))
  }

  // biome-ignore lint/correctness/useYield: the same shape as the members that do pause
  *#scalar(): Generator<void, Span> {
    return this.#value()
  }

  /** `{ "key": member, ... }`: each key (decoded) with what `member` read. */
  *#object<T>(member: (key: string) => Generator<void, T>): Generator<void, Map<string, T>> {
    const members = new Map<string, T>()
    this.#expect('{')
    if (this.#peek() === '}') return (this.#at++, members)
    for (;;) {
      if (this.#peek() !== '"') throw new Unusual()
      const key = decodeSpan(this.text, this.#value())
      if (typeof key !== 'string' || members.has(key)) throw new Unusual()
      this.#expect(':')
      this.#skipSpace()
      members.set(key, yield* member(key))
      const next = this.#peek()
      this.#at++
      if (next === '}') return members
      if (next !== ',') throw new Unusual()
    }
  }

  /** `[ value, ... ]`: where each element lies. */
  *#array(): Generator<void, Records> {
    const spans: Span[] = []
    this.#expect('[')
    if (this.#peek() === ']') return (this.#at++, { records: spans })
    for (;;) {
      this.#skipSpace()
      spans.push(this.#value())
      yield
      const next = this.#peek()
      this.#at++
      if (next === ']') return { records: spans }
      if (next !== ',') throw new Unusual()
    }
  }

  /** Skips one value (any JSON, left to the decoder to check): where it lies. */
  #value(): Span {
    const text = this.text
    const start = this.#skipSpace()
    const first = text.charCodeAt(start)
    // A value starts with ASCII (not NUL, which would change the decoder's encoding detection).
    if (!(first > 0 && first < 0x80)) throw new Unusual()
    let depth = 0
    let at = start
    for (; at < text.length; at++) {
      const c = text.charCodeAt(at)
      if (c === QUOTE) at = this.#stringEnd(at)
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++depth > MAX_SCANNED_DEPTH) throw new Unusual()
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) break
        if (--depth === 0) {
          at++
          break
        }
      } else if (depth === 0 && (c === COMMA || c === COLON || isSpace(c))) break
      if (depth === 0 && c === QUOTE) {
        at++
        break
      }
    }
    if (depth !== 0 || at === start) throw new Unusual()
    this.#at = at
    return [start, at]
  }

  /** The index of the quote that closes the string opened at `open`. */
  #stringEnd(open: number): number {
    for (let at = this.text.indexOf('"', open + 1); at !== -1; at = this.text.indexOf('"', at + 1)) {
      let backslashes = 0
      while (this.text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
      if (backslashes % 2 === 0) return at
    }
    throw new Unusual()
  }

  #expect(char: string): void {
    if (this.#peek() !== char) throw new Unusual()
    this.#at++
  }

  /** The next character that is not JSON whitespace (the index stays on it). */
  #peek(): string {
    return this.text.charAt(this.#skipSpace())
  }

  #skipSpace(): number {
    while (isSpace(this.text.charCodeAt(this.#at))) this.#at++
    return this.#at
  }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
/** JSON's whitespace, as Python's decoder takes it. */
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
