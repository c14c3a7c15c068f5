/**
 * `scanstring_unicode` of CPython 3.11's `Modules/_json.c`, with `strict=True` (the default of
 * `json.loads`), ported step by step so that every error message and position matches.
 */
import { JsonDecodeError } from './json-errors.js'
import type { PythonStringBuilder } from './string-builder.js'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const LETTER_U = 0x75
const LAST_CONTROL_CHARACTER = 0x1f

/** The one-character escapes, mapped to what they stand for. */
const SIMPLE_ESCAPES = new Map<number, number>([
  [QUOTE, QUOTE],
  [BACKSLASH, BACKSLASH],
  [0x2f, 0x2f], // '/'
  [0x62, 0x08], // 'b'
  [0x66, 0x0c], // 'f'
  [0x6e, 0x0a], // 'n'
  [0x72, 0x0d], // 'r'
  [0x74, 0x09], // 't'
])

/** A decoded JSON string and the index just after its closing quote. */
export interface ScannedString {
  value: string
  next: number
}

/**
 * Reads the JSON string whose opening quote is at `end - 1`.
 *
 * @throws {JsonDecodeError} `Invalid control character at`, `Unterminated string starting at`,
 * `Invalid \escape` or `Invalid \uXXXX escape`, at the index CPython reports.
 */
export function scanJsonString(text: Uint32Array, end: number, builder: PythonStringBuilder): ScannedString {
  const begin = end - 1
  const length = text.length
  for (;;) {
    const next = findQuoteOrBackslash(text, end)
    if (next >= length) throw new JsonDecodeError('Unterminated string starting at', begin)
    builder.pushRange(text, end, next)
    if (text[next] === QUOTE) return { value: builder.take(), next: next + 1 }
    const escapeIndex = next + 1
    if (escapeIndex === length) throw new JsonDecodeError('Unterminated string starting at', begin)
    end =
      text[escapeIndex] === LETTER_U
        ? scanUnicodeEscape(text, escapeIndex, builder)
        : scanSimpleEscape(text, escapeIndex, builder)
  }
}

/** The index of the next `"` or `\` from `start`; control characters on the way are errors. */
function findQuoteOrBackslash(text: Uint32Array, start: number): number {
  let next = start
  for (; next < text.length; next++) {
    const c = text[next] as number
    if (c === QUOTE || c === BACKSLASH) break
    if (c <= LAST_CONTROL_CHARACTER) throw new JsonDecodeError('Invalid control character at', next)
  }
  return next
}

/** Handles `\"`, `\n`, … with the escape letter at `letterIndex`; returns the index after it. */
function scanSimpleEscape(text: Uint32Array, letterIndex: number, builder: PythonStringBuilder): number {
  const decoded = SIMPLE_ESCAPES.get(text[letterIndex] as number)
  // CPython reports the backslash, one before the letter.
  if (decoded === undefined) throw new JsonDecodeError('Invalid \\escape', letterIndex - 1)
  builder.push(decoded)
  return letterIndex + 1
}

/**
 * Handles `\uXXXX` with the `u` at `uIndex`, joining a following `\uXXXX` low surrogate to a
 * high one. Returns the index after the escape (or after the pair).
 */
function scanUnicodeEscape(text: Uint32Array, uIndex: number, builder: PythonStringBuilder): number {
  let end = uIndex + 5
  // `>=`, not `>`: CPython wants at least one more character (the closing quote) after the
  // four digits, so `"\u1234` (no closing quote) is an escape error, not an unterminated string.
  if (end >= text.length) throw new JsonDecodeError('Invalid \\uXXXX escape', uIndex)
  let codePoint = readHex4(text, uIndex + 1)
  if (codePoint < 0) throw new JsonDecodeError('Invalid \\uXXXX escape', uIndex)
  const pairFits = end + 6 < text.length
  if (isHighSurrogate(codePoint) && pairFits && startsUnicodeEscape(text, end)) {
    const low = readHex4(text, end + 2)
    if (low < 0) throw new JsonDecodeError('Invalid \\uXXXX escape', end + 1)
    if (isLowSurrogate(low)) {
      codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00)
      end += 6
    }
    // Otherwise the second escape is read again, on its own, by the next round.
  }
  builder.push(codePoint)
  return end
}

function startsUnicodeEscape(text: Uint32Array, index: number): boolean {
  return text[index] === BACKSLASH && text[index + 1] === LETTER_U
}

/** The value of four hex digits from `start`, or -1 if one of them is not a hex digit. */
function readHex4(text: Uint32Array, start: number): number {
  let value = 0
  for (let i = start; i < start + 4; i++) {
    const digit = hexDigitValue(text[i] as number)
    if (digit < 0) return -1
    value = (value << 4) | digit
  }
  return value
}

function hexDigitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  return -1
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff
