import { expect, it } from 'vitest'
import { parsePythonInt } from '../../fastapi/python/int-literal.js'
import { pythonUuid } from '../../fastapi/python/uuid-constructor.js'
import { PyFloat } from '../../fastapi/python/value.js'
import { boolV1, intV1, strV1 } from '../../fastapi/pydantic/v1-scalars.js'
import { pythonDictItems } from '../../fastapi/pydantic/v1-dict.js'

/**
 * pydantic 1's lax scalars and the CPython functions under them. Every expectation is what CPython 3.11
 * (`int()`, `uuid.UUID()`) and pydantic 1.10.4 (`validators.py`) give; a generated set of 6,000 strings was
 * compared against /usr/bin/python3 when these were written.
 */
it.each([
  ['5', 5n],
  [' 5 ', 5n],
  ['+5', 5n],
  ['-0', 0n],
  ['007', 7n],
  ['1_000', 1000n],
  ['\u0663', 3n],
  ['\uff15', 5n],
  ['\u00a07\u2003', 7n],
  ['\v5\f', 5n],
  ['99999999999999999999', 99999999999999999999n],
  ['', undefined],
  [' ', undefined],
  ['1.0', undefined],
  ['1e2', undefined],
  ['0x10', undefined],
  ['1__0', undefined],
  ['_1', undefined],
  ['1_', undefined],
  ['--1', undefined],
  ['- 1', undefined],
  ['\x1c5', undefined],
  ['5\x00', undefined],
])('int(%j) is %s', (text, value) => {
  expect(parsePythonInt(text, 10)).toBe(value)
})

it.each([
  ['0X_ff', 255n],
  ['0xff', 255n],
  ['FF', 255n],
  ['0x', undefined],
  ['0x__f', undefined],
  ['g', undefined],
])('int(%j, 16) is %s', (text, value) => {
  expect(parsePythonInt(text, 16)).toBe(value)
})

const ID = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'
it.each([
  [ID, ID],
  [ID.toUpperCase(), ID],
  [ID.replaceAll('-', ''), ID],
  [`{${ID}}`, ID],
  [`urn:uuid:${ID}`, ID],
  [`}{${ID}{{`, ID],
  [`--${ID}--`, ID],
  [`5f0c:2b8e${ID.slice(8)}`.replace(':', 'uuid:'), ID],
  [`uuid:${ID}`, ID],
  [`+${ID.slice(1)}`, '0f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'],
  [` ${ID.slice(1)}`, '0f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'],
  [`0x${ID.replaceAll('-', '').slice(2)}`, '000c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'],
  [`\u0663${ID.slice(1)}`, '3f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'],
  ['not-a-uuid', undefined],
  [ID.slice(0, -1), undefined],
  [`${ID.slice(0, -1)}g`, undefined],
  ['', undefined],
  [`${ID} `, undefined],
  [`URN:UUID:${ID}`, undefined],
  [`(${ID})`, undefined],
])('uuid.UUID(%j) is %s', (text, value) => {
  expect(pythonUuid(text)).toBe(value)
})

it('str_validator writes numbers and bools as str() does, and refuses the rest', () => {
  expect(
    [5, 12345678901234567890n, new PyFloat(1e16), new PyFloat(1), new PyFloat(NaN), true, 'x'].map((v) => strV1(v)),
  ).toEqual(['5', '12345678901234567890', '1e+16', '1.0', 'nan', 'True', 'x'].map((value) => ({ ok: true, value })))
  for (const value of [null, [], ['a']]) expect(strV1(value)).toEqual({ ok: false, type: 'type_error.str' })
})

it('int_validator truncates floats, takes bools, and refuses NaN, infinities and long strings', () => {
  expect([new PyFloat(1.9), new PyFloat(-1.9), true, ' 12 ', new PyFloat(1e20)].map((v) => intV1(v))).toEqual(
    [1, -1, 1, 12, 100000000000000000000n].map((value) => ({ ok: true, value })),
  )
  for (const value of [new PyFloat(NaN), new PyFloat(Infinity), '1'.repeat(4301), [], null])
    expect(intV1(value).ok).toBe(false)
})

it('bool_validator lower-cases words, takes numbers equal to 0 or 1, trims nothing', () => {
  expect(['YES', 'oFf', 't', 'N', '1', '0', 1, new PyFloat(0)].map((v) => boolV1(v).ok && boolV1(v))).toEqual(
    [true, false, true, false, true, false, true, false].map((value) => ({ ok: true, value })),
  )
  for (const value of [' true', '', '2', 2, new PyFloat(0.5), null, []])
    expect(boolV1(value)).toEqual({ ok: false, type: 'type_error.bool' })
})

it('dict() takes pairs, and Python-equal keys are one key', () => {
  expect(pythonDictItems([['a', 1], 'bc', ['a', 2]])).toEqual([
    ['a', 2],
    ['b', 'c'],
  ])
  expect(
    pythonDictItems([
      [1, 'x'],
      [true, 'y'],
      [new PyFloat(1), 'z'],
    ]),
  ).toEqual([[1, 'z']])
  expect(pythonDictItems('')).toEqual([])
  for (const value of ['ab', ['abc'], [[[], 1]], 5, null]) expect(pythonDictItems(value as never)).toBeUndefined()
})
