import { it, expect } from 'vitest'
import { parseLaxBool } from '../../fastapi/python/lax-bool.js'
import { parseLaxInt, rustTrim, validatePythonInt } from '../../fastapi/python/lax-int.js'
import { PyDict, PyFloat } from '../../fastapi/python/value.js'
import { parseUuid, type PydanticProfile } from '../../fastapi/python/uuid.js'

// Expected values: fastapi-behaviour.md §3, §4, §5, §8, the pydantic-core/jiter/uuid sources,
// and pydantic 2.13.4 (core 2.46.4) run on each edge case.

const U = '0b6f0f8e-7b1a-4c1e-9a4e-1f2d3c4b5a69'
const SIMPLE_U = U.replaceAll('-', '')

// ---- §3: lax str → int -------------------------------------------------------------------

it.each([
  ['0', 0n],
  ['101', 101n],
  ['-1', -1n],
  [' 5', 5n],
  ['+5', 5n],
  ['05', 5n],
  ['1.0', 1n],
  ['5.00', 5n],
  ['1_0', 10n],
  ['-0', 0n],
  ['\t5\n', 5n],
  ['99999999999999999999', 99999999999999999999n],
])('parses the query integer %j as %s', (text, value) => {
  expect(parseLaxInt(text)).toEqual({ ok: true, value })
})

it.each([
  'abc',
  '1.5',
  '1.50',
  '1e2',
  '1e0',
  '5.',
  '.5',
  '0x10',
  '1__0',
  '_1',
  '1_',
  '+-1',
  '--1',
  '5 5',
  '٣',
  '１',
  '',
])('rejects %j as int_parsing', (text) => {
  expect(parseLaxInt(text)).toEqual({ ok: false, type: 'int_parsing' })
})

it.each([
  ['-05', -5n],
  ['+0', 0n],
  ['-00', 0n],
  ['-0.0', 0n],
  ['00.0', 0n],
  ['0_0', 0n],
  ['0__1', 1n],
  ['05_000', 5000n],
  ['1_0.0', 10n],
  ['1_000.000', 1000n],
  ['-0_1', -1n],
  [' +5', 5n],
  ['-1.0', -1n],
  ['9223372036854775808', 9223372036854775808n],
  ['-9223372036854775809', -9223372036854775809n],
])('cleans the edge case %j to %s', (text, value) => {
  expect(parseLaxInt(text)).toEqual({ ok: true, value })
})

it.each([
  '-',
  '+',
  '_',
  '0_',
  '0__',
  '0_.0',
  '1.0_0',
  '0.',
  '00.',
  '0.0.0',
  '+_1',
  '-_0',
  '+-0',
  '-+1',
  '+ 5',
  '- 5',
  '0x',
  '0b1',
  '1,000',
  '5\u0000',
  '-0-5',
  '0-',
  '1-1',
])('rejects the edge case %j as int_parsing', (text) => {
  expect(parseLaxInt(text)).toEqual({ ok: false, type: 'int_parsing' })
})

it('hands a minus sign after leading zeros back to the number, so 0-5 is -5', () => {
  // strip_leading_zeros returns the rest from a `-`; pydantic 2.13.4 answers -5 too.
  expect(parseLaxInt('0-5')).toEqual({ ok: true, value: -5n })
  expect(parseLaxInt('00-1')).toEqual({ ok: true, value: -1n })
  expect(parseLaxInt('0_-1')).toEqual({ ok: true, value: -1n })
  expect(parseLaxInt('0-0')).toEqual({ ok: true, value: 0n })
})

it('trims Unicode whitespace the way Rust str::trim does', () => {
  expect(parseLaxInt('\u00a05')).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt('\u20285')).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt('\u00855')).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt('\u30005\u3000')).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt('\u000b5\u000c')).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt(' 99999999999999999999 ')).toEqual({ ok: true, value: 99999999999999999999n })
})

it('does not trim U+FEFF, U+180E, U+200B or U+001C', () => {
  for (const text of ['\ufeff5', '\u180e5', '\u200b5', '\u001c5']) {
    expect(parseLaxInt(text), JSON.stringify(text)).toEqual({ ok: false, type: 'int_parsing' })
  }
  expect(rustTrim('\ufeff5\u0085')).toBe('\ufeff5')
})

it('accepts a strict integer of 4300 characters, sign included', () => {
  expect(parseLaxInt('1'.repeat(4300))).toEqual({ ok: true, value: BigInt('1'.repeat(4300)) })
  expect(parseLaxInt(`-${'1'.repeat(4299)}`)).toEqual({ ok: true, value: -BigInt('1'.repeat(4299)) })
})

it('answers int_parsing_size when the leading digit run passes 4300 characters', () => {
  for (const text of ['1'.repeat(4301), `-${'1'.repeat(4300)}`, `${'1'.repeat(4301)}.0`, `${'1'.repeat(4301)}x`]) {
    expect(parseLaxInt(text), `${text.length} chars`).toEqual({ ok: false, type: 'int_parsing_size' })
  }
})

it('answers int_parsing, not int_parsing_size, when only the cleaned string is too long', () => {
  for (const text of [`+${'1'.repeat(4301)}`, ` ${'1'.repeat(4301)}`, `0${'1'.repeat(4301)}`]) {
    expect(parseLaxInt(text), `${text.length} chars`).toEqual({ ok: false, type: 'int_parsing' })
  }
})

it('lets cleaning bring an over-long input back under the limit', () => {
  expect(parseLaxInt(` ${'1'.repeat(4300)}`)).toEqual({ ok: true, value: BigInt('1'.repeat(4300)) })
  expect(parseLaxInt(`${'1'.repeat(4300)}.0`)).toEqual({ ok: true, value: BigInt('1'.repeat(4300)) })
  expect(parseLaxInt(`${'0'.repeat(5000)}7`)).toEqual({ ok: true, value: 7n })
})

// ---- §8: sort_order, a JSON body int validated in Python mode ----------------------------

it.each([
  ['"3"', '3', 3],
  ['" 7 "', ' 7 ', 7],
  ['3.0', new PyFloat(3), 3],
  ['1e2', new PyFloat(100), 100],
  ['true', true, 1],
  ['false', false, 0],
  ['5', 5, 5],
])('accepts the body value %s for an int field', (_json, value, expected) => {
  expect(validatePythonInt(value)).toEqual({ ok: true, value: expected })
})

it.each([
  ['3.5', new PyFloat(3.5), 'int_from_float'],
  ['"3.5"', '3.5', 'int_parsing'],
  ['null', null, 'int_type'],
  ['[]', [], 'int_type'],
  ['{}', new PyDict(), 'int_type'],
  ['NaN', new PyFloat(Number.NaN), 'finite_number'],
  ['Infinity', new PyFloat(Number.POSITIVE_INFINITY), 'finite_number'],
  ['-Infinity', new PyFloat(Number.NEGATIVE_INFINITY), 'finite_number'],
  ['1e400', new PyFloat(Number.parseFloat('1e400')), 'finite_number'],
])('rejects the body value %s for an int field', (_json, value, type) => {
  expect(validatePythonInt(value)).toEqual({ ok: false, type })
})

it('keeps big Python ints as bigint and folds safe ones into numbers', () => {
  expect(validatePythonInt(10n ** 30n)).toEqual({ ok: true, value: 10n ** 30n })
  expect(validatePythonInt(2n ** 53n + 1n)).toEqual({ ok: true, value: 9007199254740993n })
  expect(validatePythonInt(5n)).toEqual({ ok: true, value: 5 })
  expect(validatePythonInt('99999999999999999999')).toEqual({ ok: true, value: 99999999999999999999n })
  expect(validatePythonInt(' +05 ')).toEqual({ ok: true, value: 5 })
})

it('turns integral floats inside the open i64 range into ints', () => {
  expect(validatePythonInt(new PyFloat(1e18))).toEqual({ ok: true, value: 1000000000000000000n })
  expect(validatePythonInt(new PyFloat(9.2e18))).toEqual({ ok: true, value: 9200000000000000000n })
  expect(validatePythonInt(new PyFloat(-9.2e18))).toEqual({ ok: true, value: -9200000000000000000n })
  expect(validatePythonInt(new PyFloat(2 ** 53))).toEqual({ ok: true, value: 9007199254740992n })
  expect(validatePythonInt(new PyFloat(-0))).toEqual({ ok: true, value: 0 })
})

it('answers int_parsing_size for a float at or beyond ±2^63', () => {
  // `(i64::MIN as f64) < float && float < (i64::MAX as f64)`: both ends are exclusive.
  expect(validatePythonInt(new PyFloat(-(2 ** 63)))).toEqual({ ok: false, type: 'int_parsing_size' })
  expect(validatePythonInt(new PyFloat(2 ** 63))).toEqual({ ok: false, type: 'int_parsing_size' })
  expect(validatePythonInt(new PyFloat(1e300))).toEqual({ ok: false, type: 'int_parsing_size' })
})

it('answers int_from_float for tiny fractions', () => {
  expect(validatePythonInt(new PyFloat(0.5))).toEqual({ ok: false, type: 'int_from_float' })
  expect(validatePythonInt(new PyFloat(-1e-300))).toEqual({ ok: false, type: 'int_from_float' })
})

it('passes an oversized string through as int_parsing_size', () => {
  expect(validatePythonInt('1'.repeat(4301))).toEqual({ ok: false, type: 'int_parsing_size' })
})

// ---- §5: lax str → bool ------------------------------------------------------------------

it.each(['1', 'true', 'yes', 'on', 't', 'y', 'TRUE', 'Yes', 'ON', 'T', 'Y', 'tRuE', 'yEs', 'oN'])(
  'reads %j as true',
  (text) => {
    expect(parseLaxBool(text)).toBe(true)
  },
)

it.each(['0', 'false', 'no', 'off', 'f', 'n', 'FALSE', 'No', 'OFF', 'F', 'N', 'FaLsE', 'oFf'])(
  'reads %j as false',
  (text) => {
    expect(parseLaxBool(text)).toBe(false)
  },
)

it.each([
  '2',
  '',
  'maybe',
  'tru',
  'truee',
  ' true',
  'true ',
  'null',
  'none',
  'None',
  '01',
  '1.0',
  '-1',
  '+1',
  '0.0',
  'ＴＲＵＥ',
  '\u0130',
])('rejects %j as bool_parsing', (text) => {
  expect(parseLaxBool(text)).toBeUndefined()
})

// ---- §4: UUID ----------------------------------------------------------------------------

const PROFILES: PydanticProfile[] = ['2.12', '2.13']

const badChar = (profile: PydanticProfile, char: string, at: number): string =>
  profile === '2.12'
    ? `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${at}`
    : `invalid character: found \`${char}\` at ${at}`

it.each([
  ['hyphenated', U],
  ['UPPERCASE', U.toUpperCase()],
  ['32 hex digits', SIMPLE_U],
  ['braced', `{${U}}`],
  ['braced UPPERCASE', `{${U.toUpperCase()}}`],
  ['urn', `urn:uuid:${U}`],
  ['urn with UPPERCASE hex', `urn:uuid:${U.toUpperCase()}`],
])('accepts the %s form and echoes it lowercase and hyphenated', (_form, text) => {
  for (const profile of PROFILES) {
    expect(parseUuid(text, profile)).toEqual({ ok: true, value: U })
  }
})

it('accepts any version or variant', () => {
  const uuids = [
    'c232ab00-9414-11ec-b3c8-9f6bdeced846',
    '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ]
  for (const uuid of uuids) {
    expect(parseUuid(uuid, '2.13')).toEqual({ ok: true, value: uuid })
  }
})

it('words the bad-character error by pydantic version', () => {
  expect(parseUuid('not-a-uuid', '2.12')).toEqual({
    ok: false,
    error: 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
  })
  expect(parseUuid('not-a-uuid', '2.13')).toEqual({ ok: false, error: 'invalid character: found `n` at 1' })
})

it.each([
  ['URN:UUID: prefix', `URN:UUID:${U}`, 'U', 1],
  ['a leading space', ` ${U}`, ' ', 1],
  ['a trailing space', `${U} `, ' ', 37],
  ['a g in the last group', `${U.slice(0, -1)}g`, 'g', 36],
  ['an x only', 'x', 'x', 1],
  ['an underscore for a hyphen', `${U.slice(0, 8)}_${U.slice(9)}`, '_', 9],
  ['a g in the simple form', `${SIMPLE_U.slice(0, -1)}g`, 'g', 32],
  ['a lone opening brace', '{', '{', 1],
  ['a lone closing brace', '}', '}', 1],
  ['an unclosed brace', `{${U}`, '{', 1],
  ['a stray closing brace', `${U}}`, '}', 37],
  ['urn:uuid: without its last colon', 'urn:uuid', 'u', 1],
  ['a urn inside braces', `{urn:uuid:${U}}`, 'u', 2],
  ['braces inside a urn', `urn:uuid:{${U}}`, '{', 10],
  ['a short urn', 'urn:uuid:x', 'x', 10],
  ['a short braced value', '{x}', 'x', 2],
  ['a tab', 'a\tb', '\t', 2],
  ['a newline', '\n', '\n', 1],
])('reports a bad character for %s', (_case, text, char, at) => {
  for (const profile of PROFILES) {
    expect(parseUuid(text, profile)).toEqual({ ok: false, error: badChar(profile, char, at) })
  }
})

it('shows a non-ASCII character whole, at its UTF-8 byte position plus one', () => {
  expect(parseUuid(`é${U.slice(1)}`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'é', 1) })
  expect(parseUuid(`${U.slice(0, 5)}é${U.slice(6)}`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'é', 6) })
  expect(parseUuid('a日', '2.13')).toEqual({ ok: false, error: badChar('2.13', '日', 2) })
  expect(parseUuid('{日}', '2.12')).toEqual({ ok: false, error: badChar('2.12', '日', 2) })
  expect(parseUuid('urn:uuid:日', '2.13')).toEqual({ ok: false, error: badChar('2.13', '日', 10) })
  expect(parseUuid(`${U.slice(0, -1)}😀`, '2.13')).toEqual({ ok: false, error: badChar('2.13', '😀', 36) })
  expect(parseUuid('{😀}', '2.13')).toEqual({ ok: false, error: badChar('2.13', '😀', 2) })
  for (const char of ['ÿ', 'Ā', 'ĭ']) {
    expect(parseUuid(char, '2.13')).toEqual({ ok: false, error: badChar('2.13', char, 1) })
  }
})

it('counts bytes, so 30 hex digits and an é make a 32-byte simple candidate', () => {
  expect(parseUuid(`${SIMPLE_U.slice(0, -2)}é`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'é', 31) })
})

it('describes only the inside of a 38-byte braced or 45-byte urn input', () => {
  // try_parse hands the inner 36 bytes to parse_hyphenated, whose error names that slice.
  expect(parseUuid(`{${U.slice(0, -1)}g}`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'g', 36) })
  expect(parseUuid(`{${U.slice(0, -2)}é}`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'é', 35) })
  expect(parseUuid(`urn:uuid:${U.slice(0, -1)}g`, '2.12')).toEqual({ ok: false, error: badChar('2.12', 'g', 36) })
  expect(parseUuid(`urn:uuid:x${U.slice(1)}`, '2.13')).toEqual({ ok: false, error: badChar('2.13', 'x', 1) })
  expect(parseUuid(`{${'a'.repeat(36)}}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid length: expected length 32 for simple format, found 36',
  })
  expect(parseUuid(`urn:uuid:${'a'.repeat(36)}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid length: expected length 32 for simple format, found 36',
  })
  expect(parseUuid(`{${U.replaceAll('-', 'a')}}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid length: expected length 32 for simple format, found 36',
  })
  expect(parseUuid(`{{${U.slice(0, 34)}}}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid group length in group 4: expected 12, found 12',
  })
  expect(parseUuid(`{${'-'.repeat(36)}}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid group count: expected 5, found 37',
  })
  expect(parseUuid(`{${SIMPLE_U.slice(0, 12)}-4c1e-9a4e-1f2d3c4b5a69-}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid group length in group 0: expected 8, found 12',
  })
})

it.each([
  ['123', 'invalid length: expected length 32 for simple format, found 3'],
  ['', 'invalid length: expected length 32 for simple format, found 0'],
  ['a'.repeat(31), 'invalid length: expected length 32 for simple format, found 31'],
  ['a'.repeat(33), 'invalid length: expected length 32 for simple format, found 33'],
  ['a'.repeat(36), 'invalid length: expected length 32 for simple format, found 36'],
  ['a'.repeat(100), 'invalid length: expected length 32 for simple format, found 100'],
  [`{${SIMPLE_U}}`, 'invalid group count: expected 5, found 1'],
  [U.slice(0, 13), 'invalid group count: expected 5, found 2'],
  ['ab-cd', 'invalid group count: expected 5, found 2'],
  [`${U}-`, 'invalid group count: expected 5, found 6'],
  [`-${U.slice(1)}`, 'invalid group count: expected 5, found 6'],
  ['-'.repeat(40), 'invalid group count: expected 5, found 41'],
  ['{}', 'invalid group count: expected 5, found 1'],
  ['urn:uuid:', 'invalid group count: expected 5, found 1'],
  [`urn:uuid:${SIMPLE_U}`, 'invalid group count: expected 5, found 1'],
  [U.slice(0, -1), 'invalid group length in group 4: expected 12, found 11'],
  [`${U.slice(0, 7)}${U.slice(8)}a`, 'invalid group length in group 0: expected 8, found 7'],
  ['----', 'invalid group length in group 0: expected 8, found 0'],
  [`${U}00`, 'invalid group length in group 4: expected 12, found 14'],
])('reports %j as %j', (text, error) => {
  for (const profile of PROFILES) {
    expect(parseUuid(text, profile)).toEqual({ ok: false, error })
  }
})

it('measures the last group against the whole input, wrapper included', () => {
  expect(parseUuid(`{${U.slice(0, -1)}}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid group length in group 4: expected 12, found 13',
  })
  expect(parseUuid(`{${U}0}`, '2.13')).toEqual({
    ok: false,
    error: 'invalid group length in group 4: expected 12, found 15',
  })
  expect(parseUuid(`urn:uuid:${U.slice(0, -1)}`, '2.12')).toEqual({
    ok: false,
    error: 'invalid group length in group 4: expected 12, found 20',
  })
  expect(parseUuid(`urn:uuid:${U}0`, '2.12')).toEqual({
    ok: false,
    error: 'invalid group length in group 4: expected 12, found 22',
  })
})
