import { Collection, OperationError } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { TimeSlice } from './time-slice.js'

/**
 * The one place the mock reaches into @msw/data's internals (docs/architecture.md), for one
 * win: seeding. `create` spends time and memory on every record for what a bulk store does
 * not need (a deep sanitising copy, a promise, two loggers, a random UUID kept as a rope
 * string): a large world would start markedly slower (docs/performance.md). So the first record a
 * collection stores goes through `create`; later ones get the same identity it gave (its
 * two non-enumerable symbols, a primary key and a relation map, read off that record) and
 * join the array `all()` returns.
 *
 * Fallback: when the identity cannot be found, when `all()` turns out not to be the live
 * array, or when hooks listen for creates (relations, extensions), every record goes
 * through `create`. test/unit/msw-data-internals.test.ts fails when the fast path is not
 * taken, so an @msw/data upgrade that changes these internals is seen at once.
 */

type AnyCollection = Collection<StandardSchemaV1>

interface Identity {
  give<T extends object>(value: T, key: string): T
}

// Per collection, keyed weakly so a dropped world's collections go: the identity its first create gave
// (null: none found, so every record goes through create), and the path its last bulk store took.
const identities = new WeakMap<AnyCollection, Identity | null>()
const lastPaths = new WeakMap<AnyCollection, 'fast' | 'create'>()
let bulkKeys = 0

/**
 * Stores records in `collection`, each validated by `schema` as `create` validates it.
 * Yields to the event loop every few milliseconds of work (model/time-slice.ts), so that storing
 * 200,000 records never holds up other requests; on the fast path the records join the
 * collection together once all are validated.
 * @returns the stored records, in order
 * @throws OperationError `INVALID_INITIAL_VALUES`, as `create` does, for a record that does not match
 */
export async function storeAll(
  collection: AnyCollection,
  schema: StandardSchemaV1,
  records: readonly unknown[],
): Promise<object[]> {
  const stored: object[] = []
  let next = 0
  // The first record a collection ever stores goes through create, and teaches the identity.
  if (!identities.has(collection) && records.length > 0) stored.push(await createOne(collection, records[next++]))
  const identity = collection.hooks.listenerCount('create') > 0 ? null : identities.get(collection)
  const live = identity ? liveArray(collection) : undefined
  // Large stores (seeding, imports) give the event loop back every few milliseconds while they
  // validate; the records then join the collection at once, so no reader sees part of a store.
  const slice = new TimeSlice()
  const first = stored.length
  for (; next < records.length; next++) {
    if (slice.due()) await slice.yield()
    if (!live || !identity) {
      stored.push(await createOne(collection, records[next]))
      continue
    }
    stored.push(identity.give(await validate(schema, records[next]), `bulk-${bulkKeys++}`))
  }
  if (live) for (let i = first; i < stored.length; i++) live.push(stored[i] as object)
  if (records.length > 1) lastPaths.set(collection, live ? 'fast' : 'create')
  return stored
}

/** Which path the last store of more than one record took in `collection`: what the adapter's test checks. */
export const lastStorePath = (collection: AnyCollection): 'fast' | 'create' | undefined => lastPaths.get(collection)

async function createOne(collection: AnyCollection, record: unknown): Promise<object> {
  const created: object = await collection.create(record as never)
  if (!identities.has(collection)) identities.set(collection, identityOf(created))
  return created
}

/** The array `all()` returns, when it is the collection's own storage (checked once); undefined otherwise. */
function liveArray(collection: AnyCollection): object[] | undefined {
  const all = collection.all() as object[]
  if (collection.all() === all && collection.count() === all.length) return all
  identities.set(collection, null)
  return undefined
}

async function validate(schema: StandardSchemaV1, record: unknown): Promise<object> {
  const result = await schema['~standard'].validate(record)
  if (result.issues) {
    throw new OperationError(
      'Failed to create a new record with initial values: does not match the schema.',
      INVALID_INITIAL_VALUES,
      result.issues,
    )
  }
  return result.value as object
}

// The enum is declared, not exported, by @msw/data's entry point; its value is this string.
const INVALID_INITIAL_VALUES = 'INVALID_INITIAL_VALUES' as ConstructorParameters<typeof OperationError>[1]

/**
 * The relation map of records stored in bulk: one shared, empty, unchangeable map (a `Map`
 * per record would be one more object for each). @msw/data only reads a record's map, except when
 * relations are defined, which would write every record's map: this one then throws rather
 * than share a relation between records. The mock defines no relations.
 */
class NoRelations extends Map<string, unknown> {
  override set(): this {
    throw new Error('Records stored in bulk have no relations: define relations before storing records.')
  }
}
const NO_RELATIONS = new NoRelations()

/** The identity a record `create` made carries, or null when it is not what this adapter knows. */
function identityOf(record: object): Identity | null {
  const symbols = Object.getOwnPropertySymbols(record)
  const primaryKey = symbols.find((symbol) => symbol.description === 'kPrimaryKey')
  const relationMap = symbols.find((symbol) => symbol.description === 'kRelationMap')
  if (symbols.length !== 2 || !primaryKey || !relationMap) return null
  const values = record as Record<symbol, unknown>
  if (typeof values[primaryKey] !== 'string' || !(values[relationMap] instanceof Map)) return null
  return {
    give(value, key) {
      return Object.defineProperties(value, {
        [primaryKey]: { value: key, enumerable: false, configurable: false },
        [relationMap]: { value: NO_RELATIONS, enumerable: false, configurable: false },
      })
    },
  }
}

/**
 * Puts records another collection of the same schema stored into an empty `collection` (a
 * fork taking its base's records): the same record objects, with the identity they have, so
 * a fork of 200,000 personas costs an array of references. @msw/data replaces a record on
 * update and never changes it, so the two collections cannot see each other's writes.
 * Only where {@link canAdopt} holds (a fork copies its base's records otherwise).
 * @throws Error when the collection's storage is not reachable
 */
export function adoptAll(collection: AnyCollection, records: readonly object[]): void {
  const live = collection.hooks.listenerCount('create') > 0 ? undefined : liveArray(collection)
  if (!live || live.length > 0) throw new Error('@msw/data: cannot adopt records into this collection')
  for (const record of records) live.push(record)
}

/**
 * Puts records a collection deleted back, at its end, at once (a persistence undoing a delete it
 * could not write: nothing may run between the undos of a rollback). Where {@link canAdopt} holds.
 * @throws Error when the collection's storage is not reachable
 */
export function putBack(collection: AnyCollection, records: readonly object[]): void {
  const live = liveArray(collection)
  if (!live) throw new Error('@msw/data: cannot put records back into this collection')
  for (const record of records) live.push(record)
}

let adoptable: boolean | undefined

/** Whether records can be adopted by another collection (checked once, on a throw-away collection). */
export function canAdopt(): boolean {
  if (adoptable === undefined) {
    const probe = new Collection({
      schema: { '~standard': { version: 1, vendor: 'probe', validate: (value) => ({ value }) } },
    })
    const live = liveArray(probe as AnyCollection)
    live?.push({})
    adoptable = live !== undefined && probe.count() === 1
  }
  return adoptable
}
