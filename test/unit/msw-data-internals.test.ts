/**
 * The one reach-in into @msw/data's internals (model/msw-data-internals.ts) must take its
 * fast path: if an @msw/data upgrade changes what it relies on, seeding silently falls back
 * to `create` for every record (several times slower to start), and this test says so.
 */
import { Collection } from '@msw/data'
import { expect, it } from 'vitest'
import { z } from 'zod'
import { adoptAll, canAdopt, lastStorePath, putBack, storeAll } from '../../model/msw-data-internals.js'

const Item = z.object({ id: z.string(), rank: z.number().default(0) })
const items = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `item-${index}` }))

it('stores records in bulk on its fast path, as records @msw/data finds, updates and deletes', async () => {
  const collection = new Collection({ schema: Item })
  const stored = await storeAll(collection as never, Item, items(1000))
  expect(
    lastStorePath(collection as never),
    'the fast path was not taken: @msw/data internals changed (see model/msw-data-internals.ts)',
  ).toBe('fast')
  expect(stored).toHaveLength(1000)
  expect(collection.count()).toBe(1000)
  expect(collection.findFirst((q) => q.where({ id: 'item-999' }))).toEqual({ id: 'item-999', rank: 0 })
  await collection.update((q) => q.where({ id: 'item-500' }), { data: (draft) => void (draft.rank = 7) })
  expect(collection.findFirst((q) => q.where({ id: 'item-500' }))?.rank).toBe(7)
  collection.delete((q) => q.where({ id: 'item-3' }))
  expect(collection.count()).toBe(999)
})

it('goes through create for every record when hooks listen for creates', async () => {
  const collection = new Collection({ schema: Item })
  const seen: string[] = []
  collection.hooks.on('create', (event) => void seen.push((event.data.record as { id: string }).id))
  await storeAll(collection as never, Item, items(5))
  expect(lastStorePath(collection as never)).toBe('create')
  expect(seen).toEqual(items(5).map((item) => item.id))
})

it('lets a fork adopt its base records on its fast path, as records @msw/data finds, updates and deletes', async () => {
  expect(canAdopt(), 'forks copy their base: @msw/data internals changed (see model/msw-data-internals.ts)').toBe(true)
  const base = new Collection({ schema: Item })
  const records = await storeAll(base as never, Item, items(100))
  const fork = new Collection({ schema: Item })
  adoptAll(fork as never, records)
  expect(fork.count()).toBe(100)
  await fork.update((q) => q.where({ id: 'item-7' }), { data: (draft) => void (draft.rank = 3) })
  fork.delete((q) => q.where({ id: 'item-8' }))
  expect(fork.findFirst((q) => q.where({ id: 'item-7' }))?.rank).toBe(3)
  expect(fork.count()).toBe(99)
  expect(base.findFirst((q) => q.where({ id: 'item-7' }))?.rank).toBe(0)
  expect(base.count()).toBe(100)
})

it('puts deleted records back at once, as records @msw/data finds again', async () => {
  const collection = new Collection({ schema: Item })
  await storeAll(collection as never, Item, items(10))
  const deleted = collection.deleteMany((q) => q.where({ id: (id) => id.endsWith('3') || id.endsWith('4') }))
  expect(collection.count()).toBe(8)
  putBack(collection as never, deleted)
  expect(collection.count()).toBe(10)
  expect(collection.findFirst((q) => q.where({ id: 'item-3' }))?.id).toBe('item-3')
})
