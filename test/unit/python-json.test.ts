/**
 * The Python-compatible JSON codec. Expected values come from CPython 3.11's `json` module
 * (`Modules/_json.c`, `Lib/json/`) and were checked against a CPython 3.11.7 interpreter.
 */
import { expect, it } from 'vitest'
import { pythonFloatRepr } from '../../fastapi/python/float.js'
import { decodeJsonBody, MAX_JSON_DEPTH, type DecodeResult } from '../../fastapi/python/json-decode.js'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'
import { PyDict, PyFloat, type PyValue } from '../../fastapi/python/value.js'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const bytes = (...values: number[]): Uint8Array => new Uint8Array(values)
const utf16le = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf16le'))
const utf16be = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf16le').swap16())

const decode = (body: string | Uint8Array): DecodeResult => decodeJsonBody(typeof body === 'string' ? utf8(body) : body)

const jsonError = (msg: string, pos: number): DecodeResult => ({
  ok: false,
  kind: 'json',
  msg,
  pos,
})
const unparseable: DecodeResult = { ok: false, kind: 'unparseable' }

function decodedValue(body: string | Uint8Array): PyValue {
  const result = decode(body)
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result)}`)
  return result.value
}

function dictOf(entries: Array<[string, PyValue]>): PyDict {
  return new PyDict(entries)
}

// Decoding: the examples observed against FastAPI (fastapi-behaviour.md §8).

it.each([
  ['hello', 'Expecting value', 0],
  ['{values: []}', 'Expecting property name enclosed in double quotes', 1],
  ['{"values": [],}', 'Expecting property name enclosed in double quotes', 14],
  ['{"values": [', 'Expecting value', 12],
  ['{"values": []} x', 'Extra data', 15],
  ['   ', 'Expecting value', 3],
  ['{"values" []}', "Expecting ':' delimiter", 10],
  ['{"values": [] "x": 1}', "Expecting ',' delimiter", 14],
  ['[1,2', "Expecting ',' delimiter", 4],
  ['{"values": [1,]}', 'Expecting value', 14],
  ['{', 'Expecting property name enclosed in double quotes', 1],
])('reports %j as "%s" at %i', (body, msg, pos) => {
  expect(decode(body)).toEqual(jsonError(msg, pos))
})

it.each([
  ['[1 2]', "Expecting ',' delimiter", 3],
  ['{"a" 1}', "Expecting ':' delimiter", 5],
  ['{"a":1 "b":2}', "Expecting ',' delimiter", 7],
  ['{"a":1,}', 'Expecting property name enclosed in double quotes', 7],
  ['{,}', 'Expecting property name enclosed in double quotes', 1],
  ['[,]', 'Expecting value', 1],
  ['{"a":}', 'Expecting value', 5],
])('reports the structural error in %j as "%s" at %i', (body, msg, pos) => {
  expect(decode(body)).toEqual(jsonError(msg, pos))
})

it('returns "Expecting value" at 0 for empty input', () => {
  expect(decode(new Uint8Array())).toEqual(jsonError('Expecting value', 0))
})

it('accepts JSON whitespace around and inside a document', () => {
  expect(decodedValue(' \r\n\t{"a" : 1 , "b" :[ ] }\n ')).toEqual(
    dictOf([
      ['a', 1],
      ['b', []],
    ]),
  )
})

it('does not treat a form feed or a no-break space as whitespace', () => {
  expect(decode('\f1')).toEqual(jsonError('Expecting value', 0))
  expect(decode('[1,\u00a0 2]')).toEqual(jsonError('Expecting value', 3))
})

// Strings.

it('reports a raw control character inside a string at its own index', () => {
  expect(decode('"a\nb"')).toEqual(jsonError('Invalid control character at', 2))
  expect(decode('["ok", "\t"]')).toEqual(jsonError('Invalid control character at', 8))
})

it('keeps DEL and U+2028 inside strings', () => {
  expect(decodedValue('"a\u007fb\u2028"')).toBe('a\u007fb\u2028')
})

it('reports an unterminated string at its opening quote', () => {
  expect(decode('"abc')).toEqual(jsonError('Unterminated string starting at', 0))
  expect(decode('["x", "ab')).toEqual(jsonError('Unterminated string starting at', 6))
  expect(decode('"abc\\')).toEqual(jsonError('Unterminated string starting at', 0))
})

it('reports an unknown escape at its backslash', () => {
  const result = decode('"\\x"')
  expect(result).toEqual(jsonError('Invalid \\escape', 1))
  expect(result.ok === false && result.kind === 'json' && result.msg).toBe('Invalid \\escape')
  expect(decode('{"a": "b\\q"}')).toEqual(jsonError('Invalid \\escape', 8))
})

it('reports a bad \\u escape at its "u"', () => {
  expect(decode('"\\u12G4"')).toEqual(jsonError('Invalid \\uXXXX escape', 2))
  expect(decode('"\\u12"')).toEqual(jsonError('Invalid \\uXXXX escape', 2))
})

it('reports a \\u escape that ends the text as a bad escape, not an unterminated string', () => {
  expect(decode('"\\u1234')).toEqual(jsonError('Invalid \\uXXXX escape', 2))
})

it('reports a bad second half of a surrogate pair at its "u"', () => {
  expect(decode('"\\ud800\\uzzzz"')).toEqual(jsonError('Invalid \\uXXXX escape', 8))
  expect(decode('"\\ud800\\ude00')).toEqual(jsonError('Invalid \\uXXXX escape', 8))
})

it('decodes the simple escapes', () => {
  expect(decodedValue('"\\"\\\\\\/\\b\\f\\n\\r\\t"')).toBe('"\\/\b\f\n\r\t')
})

it('joins an escaped surrogate pair into one code point', () => {
  expect(decodedValue('"\\ud83d\\ude00"')).toBe('😀')
  expect(decodedValue('"\\uD83D\\uDE00"')).toBe('😀')
})

it('keeps a lone escaped surrogate', () => {
  expect(decodedValue('"\\ud800"')).toBe('\ud800')
  expect(decodedValue('"\\ud800\\u0041"')).toBe('\ud800A')
  expect(decodedValue('"\\ude00\\ud83d"')).toBe('\ude00\ud83d')
})

// Objects.

it('keeps the last value and the first position of a duplicate key', () => {
  const value = decodedValue('{"a":1,"b":2,"a":3}')
  expect(value).toBeInstanceOf(PyDict)
  expect([...(value as PyDict)]).toEqual([
    ['a', 3],
    ['b', 2],
  ])
})

it('keeps the key order of integer-like keys and "__proto__"', () => {
  const value = decodedValue('{"b":1,"10":2,"__proto__":3,"2":4}') as PyDict
  expect([...value.keys()]).toEqual(['b', '10', '__proto__', '2'])
  expect(value.get('__proto__')).toBe(3)
})

it('decodes nested arrays and objects', () => {
  expect(decodedValue('[[], {}, {"a": [1, "x\\n", null, true, false]}]')).toStrictEqual([
    [],
    new PyDict(),
    dictOf([['a', [1, 'x\n', null, true, false]]]),
  ])
})

// Numbers and constants.

it('keeps ints exact: a safe integer as a number, anything larger as a bigint', () => {
  expect(decodedValue('9007199254740991')).toBe(9007199254740991)
  expect(decodedValue('-9007199254740991')).toBe(-9007199254740991)
  expect(decodedValue('9007199254740992')).toBe(9007199254740992n)
  expect(decodedValue('12345678901234567890')).toBe(12345678901234567890n)
  expect(decodedValue('-123456789012345678901234567890')).toBe(-123456789012345678901234567890n)
})

it('reads -0 as the int 0', () => {
  expect(Object.is(decodedValue('-0'), 0)).toBe(true)
})

it('accepts an int of 4300 digits and rejects one of 4301 as unparseable', () => {
  expect(decodedValue(`1${'0'.repeat(4299)}`)).toBe(10n ** 4299n)
  expect(decodedValue(`-1${'0'.repeat(4299)}`)).toBe(-(10n ** 4299n))
  expect(decode(`1${'0'.repeat(4300)}`)).toEqual(unparseable)
  expect(decode(`[1, 2, -1${'0'.repeat(4300)}]`)).toEqual(unparseable)
})

it('has no digit limit for floats', () => {
  expect(decodedValue(`1${'0'.repeat(5000)}.5`)).toStrictEqual(new PyFloat(Infinity))
})

it('keeps floats as PyFloat, even when integral', () => {
  expect(decodedValue('1.0')).toStrictEqual(new PyFloat(1))
  expect(decodedValue('1e2')).toStrictEqual(new PyFloat(100))
  expect(decodedValue('1E+2')).toStrictEqual(new PyFloat(100))
  expect(decodedValue('-0.0')).toStrictEqual(new PyFloat(-0))
  expect(decodedValue('1.5e-7')).toStrictEqual(new PyFloat(1.5e-7))
  expect(decodedValue('1e-400')).toStrictEqual(new PyFloat(0))
})

it('reads an out-of-range float literal as infinity', () => {
  expect(decodedValue('1e400')).toStrictEqual(new PyFloat(Infinity))
  expect(decodedValue('-1e400')).toStrictEqual(new PyFloat(-Infinity))
})

it('accepts the NaN, Infinity and -Infinity literals', () => {
  expect(decodedValue('[NaN, Infinity, -Infinity]')).toStrictEqual([
    new PyFloat(NaN),
    new PyFloat(Infinity),
    new PyFloat(-Infinity),
  ])
})

it('rejects constants that are cut short or spelled in another case', () => {
  expect(decode('nul')).toEqual(jsonError('Expecting value', 0))
  expect(decode('[tru]')).toEqual(jsonError('Expecting value', 1))
  expect(decode('-Inf')).toEqual(jsonError('Expecting value', 0))
  expect(decode('nan')).toEqual(jsonError('Expecting value', 0))
  expect(decode('True')).toEqual(jsonError('Expecting value', 0))
})

it.each([
  ['1.', 'Extra data', 1],
  ['1.e5', 'Extra data', 1],
  ['-', 'Expecting value', 0],
  ['[-]', 'Expecting value', 1],
  ['01', 'Extra data', 1],
  ['-01', 'Extra data', 2],
  ['1e', 'Extra data', 1],
  ['1e+', 'Extra data', 1],
  ['[1e]', "Expecting ',' delimiter", 2],
  ['.5', 'Expecting value', 0],
  ['+1', 'Expecting value', 0],
])('treats the number edge case %j like the C scanner: "%s" at %i', (body, msg, pos) => {
  expect(decode(body)).toEqual(jsonError(msg, pos))
})

// Encodings.

it('accepts a UTF-8 BOM, but only one', () => {
  expect(decodedValue(bytes(0xef, 0xbb, 0xbf, ...utf8('{"a":1}')))).toEqual(dictOf([['a', 1]]))
  expect(decode(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x31))).toEqual(jsonError('Expecting value', 0))
})

it('accepts UTF-16 LE and BE with a BOM', () => {
  const expected = dictOf([['é', [1]]])
  expect(decodedValue(bytes(0xff, 0xfe, ...utf16le('{"é": [1]}')))).toEqual(expected)
  expect(decodedValue(bytes(0xfe, 0xff, ...utf16be('{"é": [1]}')))).toEqual(expected)
})

it('detects UTF-16 and UTF-32 without a BOM from the NUL bytes', () => {
  expect(decodedValue(utf16le('[1]'))).toEqual([1])
  expect(decodedValue(utf16be('[1]'))).toEqual([1])
  expect(decodedValue(bytes(0x31, 0x00))).toBe(1)
  expect(decodedValue(bytes(0x00, 0x31))).toBe(1)
  expect(decodedValue(bytes(0x31, 0x00, 0x00, 0x00))).toBe(1)
  expect(decodedValue(bytes(0x00, 0x00, 0x00, 0x31))).toBe(1)
  expect(decodedValue(bytes(0xff, 0xfe, 0x00, 0x00, 0x31, 0x00, 0x00, 0x00))).toBe(1)
})

it('rejects a UTF-16 body of odd length as unparseable', () => {
  expect(decode(bytes(0xfe, 0xff, 0x00, 0x5b, 0x00, 0x31, 0x00))).toEqual(unparseable)
})

it('keeps a lone surrogate from UTF-16 input', () => {
  expect(decodedValue(bytes(0xff, 0xfe, 0x22, 0x00, 0x00, 0xd8, 0x22, 0x00))).toBe('\ud800')
})

it('rejects invalid UTF-8 as unparseable', () => {
  expect(decode(bytes(0xff))).toEqual(unparseable)
  expect(decode(bytes(0x22, 0xc3, 0x22))).toEqual(unparseable)
  expect(decode(bytes(0x22, 0xc0, 0xaf, 0x22))).toEqual(unparseable)
  expect(decode(bytes(0x22, 0xed, 0xa0, 0x22))).toEqual(unparseable)
  expect(decode(bytes(0x22, 0xf4, 0x90, 0x80, 0x80, 0x22))).toEqual(unparseable)
})

it('decodes a UTF-8-encoded surrogate to a lone surrogate (surrogatepass)', () => {
  expect(decodedValue(bytes(0x22, 0xed, 0xa0, 0x80, 0x22))).toBe('\ud800')
})

it('counts positions in code points after a non-ASCII character', () => {
  expect(decode('"é" x')).toEqual(jsonError('Extra data', 4))
  expect(decode('["😀", x]')).toEqual(jsonError('Expecting value', 6))
  const utf16Body = bytes(0xff, 0xfe, ...utf16le('["😀", x]'))
  expect(decode(utf16Body)).toEqual(jsonError('Expecting value', 6))
})

// Nesting and size.

it(`accepts ${MAX_JSON_DEPTH} levels of nesting and rejects one more as unparseable`, () => {
  const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
  expect(decode(nested(MAX_JSON_DEPTH)).ok).toBe(true)
  expect(decode(nested(MAX_JSON_DEPTH + 1))).toEqual(unparseable)
  const objects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
  expect(decode(objects(MAX_JSON_DEPTH)).ok).toBe(true)
  expect(decode(objects(MAX_JSON_DEPTH + 1))).toEqual(unparseable)
})

it('fails on deep nesting without overflowing the stack', () => {
  expect(decode('['.repeat(1_000_000))).toEqual(unparseable)
})

it('reports an error found before the nesting limit is reached', () => {
  expect(decode(`[[x${'['.repeat(2000)}`)).toEqual(jsonError('Expecting value', 2))
})

it('decodes a 1 MiB body', () => {
  const items = Array.from({ length: 9000 }, (_, i) => ({
    value: `v${i}`,
    display_name: `Élan ${i} 😀`,
    metadata: { a: [1, 2.5, true, null], b: 'x\ny' },
    sort_order: i,
  }))
  const body = utf8(JSON.stringify({ values: items }))
  expect(body.length).toBeGreaterThan(1_000_000)
  const value = decodedValue(body) as PyDict
  expect((value.get('values') as PyValue[]).length).toBe(9000)
})

// Encoding.

it('writes decoded values back the way json.dumps does', () => {
  const body =
    '{"values":[{"value":"é😀","n":1.0,"big":123456789012345678901234567890,' +
    '"f":1e16,"g":1E-7,"t":true,"z":null,"neg":-0,"nf":-0.0}]}'
  expect(encodePythonJson(decodedValue(body))).toBe(
    '{"values":[{"value":"é😀","n":1.0,"big":123456789012345678901234567890,' +
      '"f":1e+16,"g":1e-07,"t":true,"z":null,"neg":0,"nf":-0.0}]}',
  )
})

it('escapes strings like encode_basestring with ensure_ascii=False', () => {
  expect(encodePythonJson('"\\\n\r\t\b\f\u0001\u001f\u007f\u2028é😀')).toBe(
    '"\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\u007f\u2028é😀"',
  )
})

it('escapes a lone surrogate instead of failing', () => {
  expect(encodePythonJson('a\ud800b')).toBe('"a\\ud800b"')
  expect(encodePythonJson(decodedValue('"\\udfff"'))).toBe('"\\udfff"')
})

it('writes integral JS numbers as ints and other numbers as Python floats', () => {
  expect(encodePythonJson([1, -0, 1.5, 1e-7, 2 ** 53, 1e21, -1e21])).toBe(
    '[1,0,1.5,1e-07,9007199254740992,1000000000000000000000,-1000000000000000000000]',
  )
})

it('writes bigints as their decimal digits', () => {
  expect(encodePythonJson(-(10n ** 30n))).toBe(`-1${'0'.repeat(30)}`)
})

it('writes PyFloat values with repr(float)', () => {
  const floats = [100, -0, 1e16, 1e-5, 0.1].map((x) => new PyFloat(x))
  expect(encodePythonJson(floats)).toBe('[100.0,-0.0,1e+16,1e-05,0.1]')
})

it('writes non-finite floats as the strings NaN, Infinity and -Infinity', () => {
  expect(encodePythonJson([new PyFloat(NaN), new PyFloat(Infinity), new PyFloat(-Infinity)])).toBe(
    '["NaN","Infinity","-Infinity"]',
  )
  expect(encodePythonJson([NaN, Infinity, -Infinity])).toBe('["NaN","Infinity","-Infinity"]')
})

it('writes a PyDict in insertion order, "10" and "__proto__" included', () => {
  const dict = dictOf([
    ['b', 1],
    ['10', 2],
    ['__proto__', 3],
  ])
  expect(encodePythonJson(dict)).toBe('{"b":1,"10":2,"__proto__":3}')
})

it('writes plain objects in JS key order and skips undefined properties', () => {
  expect(encodePythonJson({ type: 'missing', loc: ['body'], ctx: undefined, input: null })).toBe(
    '{"type":"missing","loc":["body"],"input":null}',
  )
  expect(encodePythonJson({ b: 1, 10: 2 })).toBe('{"10":2,"b":1}')
  expect(encodePythonJson(Object.assign(Object.create(null), { a: 'x' }))).toBe('{"a":"x"}')
})

it('escapes object keys like strings', () => {
  expect(encodePythonJson(dictOf([['a"\n\u0001', 1]]))).toBe('{"a\\"\\n\\u0001":1}')
})

it('round-trips 1 MiB of decoded JSON byte for byte', () => {
  const body = JSON.stringify({
    values: Array.from({ length: 30_000 }, (_, i) => ({ v: `é${i}\u0001`, n: i, f: i + 0.5 })),
  })
  expect(body.length).toBeGreaterThan(1_000_000)
  expect(encodePythonJson(decodedValue(body))).toBe(body)
})

it('encodes deep nesting without overflowing the stack', () => {
  let nested: PyValue = []
  for (let i = 0; i < 100_000; i++) nested = [nested]
  expect(encodePythonJson(nested)).toBe('['.repeat(100_001) + ']'.repeat(100_001))
})

it('rejects values Python could not hold', () => {
  expect(() => encodePythonJson(undefined)).toThrow(TypeError)
  expect(() => encodePythonJson([undefined])).toThrow(TypeError)
  expect(() => encodePythonJson(() => 1)).toThrow(TypeError)
  expect(() => encodePythonJson(Symbol('s'))).toThrow(TypeError)
  expect(() => encodePythonJson(new Date(0))).toThrow(TypeError)
  expect(() => encodePythonJson(new Map([['a', 1]]))).toThrow(TypeError)
  expect(() => encodePythonJson({ at: new Set() })).toThrow(TypeError)
})

it('rejects circular references', () => {
  const cycle: unknown[] = []
  cycle.push(cycle)
  expect(() => encodePythonJson(cycle)).toThrow('Circular reference detected')
})

it('writes a value shared by two members twice', () => {
  const shared = [1]
  expect(encodePythonJson({ a: shared, b: shared })).toBe('{"a":[1],"b":[1]}')
})

// repr(float).

it.each([
  [100, '100.0'],
  [1e16, '1e+16'],
  [1e-5, '1e-05'],
  [1.5e-7, '1.5e-07'],
  [-0, '-0.0'],
  [0, '0.0'],
  [0.0001, '0.0001'],
  [0.00005, '5e-05'],
  [1.2345e20, '1.2345e+20'],
  [9999999999999998, '9999999999999998.0'],
  [1e15, '1000000000000000.0'],
  [0.1, '0.1'],
  [123.456, '123.456'],
  [-2.5, '-2.5'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [5e-324, '5e-324'],
  [NaN, 'nan'],
  [Infinity, 'inf'],
  [-Infinity, '-inf'],
])('formats %d as repr(float) does: %s', (x, repr) => {
  expect(pythonFloatRepr(x)).toBe(repr)
})
