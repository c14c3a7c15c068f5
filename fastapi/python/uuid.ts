/**
 * `uuid::Uuid::parse_str` as pydantic-core calls it for `UUID` fields: uuid 1.18.x behind
 * pydantic 2.12 (core 2.41.5) and uuid 1.23.x behind pydantic 2.13 (core 2.46.x). Only the
 * bad-character message differs between the two.
 */

/** The pydantic minor version whose messages the mock imitates. */
export type PydanticProfile = '2.12' | '2.13'

export type UuidResult = { ok: true; value: string } | { ok: false; error: string }

const SIMPLE = /^[0-9a-f]{32}$/i
const HYPHENATED = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i
const HEX_DIGIT = /^[0-9a-fA-F]$/
const URN_PREFIX = 'urn:uuid:'

/** Where each group starts in the hyphenated form, and how long each is. */
const GROUP_STARTS = [0, 9, 14, 19, 24] as const
const GROUP_LENGTHS = [8, 4, 4, 4, 12] as const

/** The crate counts bytes, not characters. A lone surrogate counts as the U+FFFD it becomes. */
function utf8Length(text: string): number {
  let length = 0
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0
    length += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4
  }
  return length
}

/** `Uuid::to_string()`: lowercase, hyphenated. */
function canonical(hex: string): string {
  const h = hex.toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/**
 * The slice `try_parse` hands to the hyphenated parser: the whole 36-byte input, the inside of
 * a 38-byte `{…}`, or the rest of a 45-byte `urn:uuid:…`. On failure the crate describes
 * **that slice**, not the whole input (`parse_hyphenated` returns `InvalidUuid(s)`), which is
 * why a 38-byte `{…g}` reports `g` at 36, not 37. Read in uuid 1.23.0 and seen in pydantic
 * 2.13.4; taken to hold for uuid 1.18 too (uuid 1.4 still described the whole input).
 */
function hyphenatedCandidate(text: string, length: number): string | undefined {
  if (length === 36) {
    return text
  }
  if (length === 38 && text.startsWith('{') && text.endsWith('}')) {
    return text.slice(1, -1)
  }
  return length === 45 && text.startsWith(URN_PREFIX) ? text.slice(URN_PREFIX.length) : undefined
}

/** `try_parse`: the canonical string, or the slice whose error gets described. */
function tryParse(text: string): { value: string } | { invalid: string } {
  const length = utf8Length(text)
  if (length === 32) {
    return SIMPLE.test(text) ? { value: canonical(text) } : { invalid: text }
  }
  const candidate = hyphenatedCandidate(text, length)
  if (candidate === undefined) {
    return { invalid: text }
  }
  const groups = HYPHENATED.exec(candidate)
  return groups === null ? { invalid: candidate } : { value: canonical(groups.slice(1).join('')) }
}

function characterError(char: string, position: number, profile: PydanticProfile): string {
  // uuid 1.23 dropped the "expected …" part (uuid-rs/uuid#862); the position stayed 1-based.
  return profile === '2.12'
    ? `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${position}`
    : `invalid character: found \`${char}\` at ${position}`
}

/** The wrapper `into_err` looks through, and how many bytes it shifts positions by. */
function unwrap(text: string): { body: string; offset: number; simple: boolean } {
  if (text.startsWith('{') && text.endsWith('}') && text.length >= 2) {
    return { body: text.slice(1, -1), offset: 1, simple: false }
  }
  if (text.startsWith(URN_PREFIX)) {
    return { body: text.slice(URN_PREFIX.length), offset: URN_PREFIX.length, simple: false }
  }
  return { body: text, offset: 0, simple: true }
}

/** Scans for the first bad character and the byte positions of the first four hyphens. */
function scan(body: string): { badChar: string; at: number } | { hyphens: number[]; count: number } {
  const hyphens: number[] = []
  let count = 0
  let byteIndex = 0
  for (const char of body) {
    if (char === '-') {
      if (count < 4) {
        hyphens.push(byteIndex)
      }
      count++
    } else if (!HEX_DIGIT.test(char)) {
      return { badChar: char, at: byteIndex }
    }
    byteIndex += utf8Length(char)
  }
  return { hyphens, count }
}

/** `InvalidUuid::into_err` followed by `Display`, for the slice `try_parse` rejected. */
function describeInvalid(text: string, profile: PydanticProfile): string {
  const { body, offset, simple } = unwrap(text)
  const scanned = scan(body)
  if ('badChar' in scanned) {
    return characterError(scanned.badChar, scanned.at + offset + 1, profile)
  }
  const length = utf8Length(text)
  if (scanned.count === 0 && simple) {
    return `invalid length: expected length 32 for simple format, found ${length}`
  }
  if (scanned.count !== 4) {
    return `invalid group count: expected 5, found ${scanned.count + 1}`
  }
  return groupLengthError(scanned.hyphens, length)
}

function groupLengthError(hyphens: number[], length: number): string {
  for (let group = 0; group < 4; group++) {
    const start = GROUP_STARTS[group] ?? 0
    const hyphen = hyphens[group] ?? 0
    if (hyphen !== (GROUP_STARTS[group + 1] ?? 0) - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${hyphen - start}`
    }
  }
  // The crate blames the last group and measures it against the whole slice, `{}`/`urn:uuid:`
  // included.
  return `invalid group length in group 4: expected 12, found ${length - GROUP_STARTS[4]}`
}

/**
 * Parses a UUID like `uuid::Uuid::parse_str`: 32 hex digits, the 36-character hyphenated form,
 * `{hyphenated}` or `urn:uuid:hyphenated`, hex in any case, any version or variant.
 * Returns the lowercase hyphenated form, or the crate's error text (pydantic's `ctx.error`;
 * its `msg` is `"Input should be a valid UUID, " + error`).
 * @example
 * parseUuid('{0B6F0F8E-7B1A-4C1E-9A4E-1F2D3C4B5A69}', '2.13') // { ok: true, value: '0b6f0f8e-7b1a-4c1e-9a4e-1f2d3c4b5a69' }
 * parseUuid('not-a-uuid', '2.13') // { ok: false, error: 'invalid character: found `n` at 1' }
 * @see https://github.com/uuid-rs/uuid/blob/main/src/error.rs
 */
export function parseUuid(text: string, pydantic: PydanticProfile): UuidResult {
  const parsed = tryParse(text)
  return 'value' in parsed
    ? { ok: true, value: parsed.value }
    : { ok: false, error: describeInvalid(parsed.invalid, pydantic) }
}
