import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'
import { readAnswer } from '../support/answer.js'
import { fuzzParameters, timeoutFor } from './support/fuzz.js'

const RUNS = 120

type Stored = {
  id: string
  dimension_id: string
  value: string
  display_name: string
  value_metadata: object
  sort_order: number | bigint
}

/** One item of a batch, and its JSON as sent (sort orders past 2^53 written exactly). */
interface Item {
  value: string
  display_name?: string
  metadata?: Array<[string, string | number | boolean | null]>
  sort_order?: bigint
}

let mock: MockServer

beforeAll(async () => {
  mock = await createMockServer({ seed: 35, personasPerTeam: 5 })
})
afterAll(() => mock.close())

const metadataJson = (entries: Item['metadata']) =>
  `{${(entries ?? []).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`
const itemJson = (item: Item) =>
  `{${[
    `"value":${JSON.stringify(item.value)}`,
    ...(item.display_name === undefined ? [] : [`"display_name":${JSON.stringify(item.display_name)}`]),
    ...(item.metadata === undefined ? [] : [`"metadata":${metadataJson(item.metadata)}`]),
    ...(item.sort_order === undefined ? [] : [`"sort_order":${item.sort_order}`]),
  ].join(',')}}`
const batchJson = (items: Item[]) => `{"values":[${items.map(itemJson).join(',')}]}`

/** Values from a small pool, so that batches overlap each other and the dimension; look-alikes that are different values. */
const POOL = ['a', 'b', 'c', 'd', 'A', 'é', 'e\u0301', '😀', ' a', 'a ', '__proto__', 'constructor', 'prototype']
const item: fc.Arbitrary<Item> = fc.record(
  {
    value: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...POOL) },
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
    ),
    display_name: fc.string({ unit: 'grapheme', maxLength: 8 }),
    metadata: fc.uniqueArray(
      fc.tuple(
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '10', ''), fc.string({ maxLength: 5 })),
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 5 }), fc.integer(), fc.boolean(), fc.constant(null)),
      ),
      { maxLength: 4, selector: ([key]) => key },
    ),
    // Absent in about half the items (the default); else small, negative, or past 2^53.
    sort_order: fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 64n })),
  },
  { requiredKeys: ['value'] },
)

const storedIn = (dimension: string) =>
  (mock.world.values.all() as Stored[]).filter((v) => v.dimension_id === dimension)

/** The description's bulk add, step by step: skip what is there or came earlier; default sort_order is the largest so far plus one (0 in an empty dimension). */
function expectedAdded(old: readonly Stored[], items: readonly Item[]) {
  const seen = new Set(old.map((v) => v.value))
  let largest = old.reduce<bigint | undefined>(
    (max, v) => (max === undefined || BigInt(v.sort_order) > max ? BigInt(v.sort_order) : max),
    undefined,
  )
  const added: Array<{ value: string; display_name: string; metadata: string; sort_order: bigint }> = []
  for (const it of items) {
    if (seen.has(it.value)) continue
    seen.add(it.value)
    const sortOrder = it.sort_order ?? (largest === undefined ? 0n : largest + 1n)
    if (largest === undefined || sortOrder > largest) largest = sortOrder
    added.push({
      value: it.value,
      display_name: it.display_name ?? it.value,
      metadata: metadataJson(it.metadata),
      sort_order: sortOrder,
    })
  }
  return added
}

async function newDimension(): Promise<string> {
  const id = crypto.randomUUID()
  await mock.world.dimensions.create({ id, name: `fuzz ${id}`, description: null, created_at: 1_700_000_000 })
  return id
}

const bulkAdd = async (dimension: string, body: string) =>
  readAnswer(
    await fetch(mock.url(`/v1/demographics/${dimension}/values/bulk`), {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body,
    }),
  )

it(
  'leaves a dimension holding exactly its old values plus the new distinct ones, with the documented sort orders',
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.array(item, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        async (fresh, batches) => {
          const dimension = fresh ? await newDimension() : mock.fixtures.dimensions[0]!.id
          for (const batch of batches) {
            const old = storedIn(dimension)
            const want = expectedAdded(old, batch)
            const answer = await bulkAdd(dimension, batchJson(batch))
            expect(answer.status, answer.text).toBe(201)
            expect(
              (answer.json as Array<{ value: string }>).map((v) => v.value),
              'the answer lists the added values, in request order',
            ).toEqual(want.map((v) => v.value))
            const after = storedIn(dimension)
            expect(after.slice(0, old.length), 'old values untouched').toEqual(old)
            const added = after.slice(old.length).map((v) => ({
              value: v.value,
              display_name: v.display_name,
              metadata: encodePythonJson(v.value_metadata),
              sort_order: BigInt(v.sort_order),
            }))
            expect(added).toEqual(want)
          }
        },
      ),
      fuzzParameters(RUNS, 7_006),
    )
  },
  timeoutFor(RUNS, 60),
)

it(
  'keeps every concurrent batch whole: random overlapping batches in parallel add each distinct value exactly once',
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(...POOL, 'x', 'y', 'z'), { maxLength: 10 }), { minLength: 2, maxLength: 12 }),
        async (batches) => {
          const dimension = await newDimension()
          const answers = await Promise.all(
            batches.map((values) => bulkAdd(dimension, batchJson(values.map((value) => ({ value }))))),
          )
          const created = answers.flatMap((a) => a.json as Array<{ value: string; sort_order: number }>)
          const distinct = new Set(batches.flat())
          expect(created.map((v) => v.value).sort()).toEqual([...distinct].sort())
          expect(created.map((v) => v.sort_order).sort((a, b) => a - b)).toEqual([...distinct].map((_, i) => i))
          expect(storedIn(dimension)).toHaveLength(distinct.size)
        },
      ),
      fuzzParameters(RUNS, 7_007),
    )
  },
  timeoutFor(RUNS, 60),
)

it(
  'adds nothing at all under `bulkDuplicates: reject` when any value repeats, and everything otherwise',
  async () => {
    mock.close()
    mock = await createMockServer({ seed: 35, personasPerTeam: 5, profile: { bulkDuplicates: 'reject' } })
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 8 }), async (batch) => {
        const dimension = mock.fixtures.dimensions[2]!.id
        const old = storedIn(dimension)
        const want = expectedAdded(old, batch)
        const answer = await bulkAdd(dimension, batchJson(batch))
        if (want.length === batch.length) {
          expect(answer.status, answer.text).toBe(201)
          expect(storedIn(dimension)).toHaveLength(old.length + want.length)
        } else {
          const repeated = [
            ...new Set(
              batch
                .map((i) => i.value)
                .filter((value, index, all) => old.some((v) => v.value === value) || all.indexOf(value) !== index),
            ),
          ]
          expect([answer.status, answer.json?.detail]).toEqual([409, `Duplicate values: ${repeated.join(', ')}`])
          expect(storedIn(dimension)).toEqual(old)
        }
      }),
      fuzzParameters(RUNS, 7_008),
    )
  },
  timeoutFor(RUNS, 60),
)
