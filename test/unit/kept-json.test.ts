/**
 * The store behind kept JSON (handlers/kept-json.ts): what it gives back is exactly what was
 * kept, and a world's budget bounds the memory of all its lists together.
 */
import { expect, it } from 'vitest'
import { JsonBudget, ListJson } from '../../fastapi/wire/kept-json.js'

const MiB = 2 ** 20
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes))
/** JSON of about `size` UTF-8 bytes, different for each `seed`. */
const record = (seed: number, size: number) => JSON.stringify({ seed, filler: 'x'.repeat(size - 30) })

it('gives back the exact bytes kept for each position, multi-byte text included, and nothing for others', () => {
  const kept = new ListJson(new JsonBudget(4 * MiB), 5)
  const json = '{"name":"Zoë Ångström","role":"李雷 \\"quoted\\""}'
  const bytes = kept.keep(3, json)
  expect(text(bytes)).toBe(json)
  expect(bytes!.byteLength).toBe(new TextEncoder().encode(json).byteLength)
  expect(text(kept.get(3))).toBe(json)
  expect(kept.get(2)).toBeUndefined()
  expect(kept.keep(5, json), 'a position past the list').toBeUndefined()
  expect(kept.keep(4, ''), 'empty JSON is never kept').toBeUndefined()
})

it('stops keeping once the lists of one world have used its budget, and keeps what it kept', () => {
  const budget = new JsonBudget(2 * MiB)
  const first = new ListJson(budget, 100)
  const second = new ListJson(budget, 100)
  const size = 300_000 // three to a 1 MiB chunk
  const keptFirst = [0, 1, 2, 3].map((position) => first.keep(position, record(position, size)))
  expect(
    keptFirst.every((bytes) => bytes !== undefined),
    'the first list takes two chunks',
  ).toBe(true)
  // The budget is spent: the other list of the world gets nothing, and neither does the first past its chunk.
  expect(second.keep(0, record(100, size))).toBeUndefined()
  expect(first.keep(4, record(4, size))).not.toBeUndefined()
  expect(first.keep(5, record(5, size))).not.toBeUndefined()
  expect(first.keep(6, record(6, size)), 'a third chunk is over the budget').toBeUndefined()
  for (const position of [0, 1, 2, 3, 4, 5]) expect(text(first.get(position))).toBe(record(position, size))
  expect(first.get(6)).toBeUndefined()
  expect(second.get(0)).toBeUndefined()
})

it('does not keep a record too large for a chunk', () => {
  const kept = new ListJson(new JsonBudget(8 * MiB), 1)
  expect(kept.keep(0, record(0, MiB))).toBeUndefined()
  expect(kept.get(0)).toBeUndefined()
})
