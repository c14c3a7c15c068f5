import type { Faker } from '@faker-js/faker'
import { generateValue, isoTime, type GenerationContext } from '../../factories/from-schema.js'
import { seededFaker } from '../../factories/random.js'
import { isObject, type ServedDocument } from '../../fastapi/served/document.js'
import type { DocumentedRecord } from '../../model/documented.js'
import type { Profile } from '../../model/profile.js'
import type { World } from '../../model/world.js'
import type { Collection } from './conventions.js'

/** How many records a collection nobody wrote starts with. */
export const SEEDED_RECORDS = 5

/** The random streams of served documents' records, apart from those of the mock's own (factories/). */
const SEED_STREAM = 101
const CREATE_STREAM = 102
const GENERATE_STREAM = 103

/** The seeded records of each collection, by document, seed and date spelling: they are the same every time. */
const seededCache = new WeakMap<ServedDocument, Map<string, readonly DocumentedRecord[]>>()

/** A collection's records in a world: those written, else those seeded for the world's seed. */
export function recordsOf(
  world: World,
  document: ServedDocument,
  collection: Collection,
  profile: Profile,
): readonly DocumentedRecord[] {
  const written = world.documented(collection.key)
  if (written) return written
  const cache = seededCache.get(document) ?? new Map<string, readonly DocumentedRecord[]>()
  seededCache.set(document, cache)
  const cacheKey = `${world.seed} ${collection.key} ${profile.pydantic}`
  let seeded = cache.get(cacheKey)
  if (!seeded) {
    const faker = seededFaker(world.seed, SEED_STREAM, hashOf(collection.key))
    seeded = Array.from({ length: SEEDED_RECORDS }, (_, index) => {
      const record = timesInOrder(asRecord(generateValue(contextOf(document, faker, profile), collection.schema ?? {})))
      return withIntegerId(document, collection, record, index + 1)
    })
    cache.set(cacheKey, seeded)
  }
  return seeded
}

/**
 * A record whose `updated_at` (or `modified_at`, `updatedAt`) was drawn before its `created_at` (`createdAt`), with
 * the two swapped: drawn apart, they fall in either order, and a record changed before it was made shows an app's
 * "edited" badge and sort by update time wrong.
 */
function timesInOrder(record: DocumentedRecord): DocumentedRecord {
  const created = Object.keys(record).find((name) => /^created(_at|At)$/.test(name))
  const updated = Object.keys(record).find((name) => /^(updated|modified)(_at|At)$/.test(name))
  if (!created || !updated) return record
  const [made, changed] = [record[created], record[updated]]
  const comparable = typeof made === typeof changed && (typeof made === 'string' || typeof made === 'number')
  return comparable && (changed as string | number) < (made as string | number)
    ? { ...record, [created]: changed, [updated]: made }
    : record
}

/** Draws of a create's generated id before its record is left to the 409 of an id taken. */
const ID_DRAWS = 16

/**
 * A record stored from a create's body: the record schema's other fields generated (an id, the timestamps now,
 * defaults from the document), the body's fields as validated. A generated id another record holds is drawn
 * again: the stream is seeded from the collection's size, which a delete lowers back to that of an earlier create
 * of the same body. An id the body sends is kept, taken or not (the caller refuses it with 409).
 */
export function newRecord(
  document: ServedDocument,
  collection: Collection,
  existing: readonly DocumentedRecord[],
  body: unknown,
  context: { world: World; profile: Profile; now: number },
): DocumentedRecord {
  const sentId = isObject(body) && collection.idField in body
  // An integer id counts up past the largest: never taken, so never drawn again.
  const nextId = largestIntegerId(existing, collection.idField) + 1
  const draw = (index: number) =>
    withIntegerId(document, collection, drawRecord(document, collection, existing.length, body, context, index), nextId)
  let record = draw(0)
  for (let index = 1; index < ID_DRAWS && !sentId; index++) {
    if (!idTaken(existing, collection.idField, record[collection.idField])) break
    record = draw(index)
  }
  return record
}

/** One draw of a created record; the first as it always was, so the same requests keep giving the same records. */
function drawRecord(
  document: ServedDocument,
  collection: Collection,
  size: number,
  body: unknown,
  { world, profile, now }: { world: World; profile: Profile; now: number },
  draw: number,
): DocumentedRecord {
  const stream = [CREATE_STREAM, hashOf(collection.key), size, hashOf(stable(body)), ...(draw ? [draw] : [])]
  const faker = seededFaker(world.seed, ...stream)
  const generated = asRecord(generateValue({ ...contextOf(document, faker, profile), now }, collection.schema ?? {}))
  return { ...generated, ...defaultsOf(document, collection), ...(isObject(body) ? body : {}) }
}

/**
 * The largest integer id held (0 for none), in a loop: spreading a collection of 125,000 records into
 * `Math.max` overflows the call stack.
 */
function largestIntegerId(records: readonly DocumentedRecord[], idField: string): number {
  let largest = 0
  for (const record of records) largest = Math.max(largest, Number(record[idField]) || 0)
  return largest
}

/**
 * Whether a record other than the one at `except` holds this id (compared as the item path reads it, as text).
 * A record without an id clashes with none.
 */
export function idTaken(records: readonly DocumentedRecord[], idField: string, id: unknown, except = -1): boolean {
  if (id === undefined || id === null) return false
  const wanted = String(id)
  for (let at = 0; at < records.length; at++) if (at !== except && String(records[at]![idField]) === wanted) return true
  return false
}

/** The record's `updated_at`-like fields set to now, as the record schema spells a timestamp. */
export function touched(
  document: ServedDocument,
  collection: Collection,
  record: DocumentedRecord,
  { profile, now }: { profile: Profile; now: number },
): DocumentedRecord {
  const properties = propertiesOf(document, collection)
  const stamps = Object.keys(properties).filter((name) => /^(updated|modified)_at$/.test(name))
  if (stamps.length === 0) return record
  const stamp = (name: string) =>
    document.deref(properties[name]).type === 'integer' ? now : isoTime(now, utcSuffixOf(profile))
  return { ...record, ...Object.fromEntries(stamps.map((name) => [name, stamp(name)])) }
}

/** A value generated from an operation's response schema, the same for the same path and seed. */
export function generatedAnswer(
  document: ServedDocument,
  schema: unknown,
  { world, profile, key, echo }: { world: World; profile: Profile; key: string; echo: Record<string, unknown> },
): unknown {
  const faker = seededFaker(world.seed, GENERATE_STREAM, hashOf(key))
  return generateValue({ ...contextOf(document, faker, profile), echo }, schema ?? {})
}

function contextOf(document: ServedDocument, faker: Faker, profile: Profile): GenerationContext {
  return { document, faker, utcSuffix: utcSuffixOf(profile) }
}

/** pydantic 1 writes an aware UTC datetime as `+00:00`, pydantic 2 as `Z`. */
const utcSuffixOf = (profile: Profile) => (profile.pydantic === '1' ? '+00:00' : 'Z')

function propertiesOf(document: ServedDocument, collection: Collection): Record<string, unknown> {
  const properties = collection.schema ? document.deref(collection.schema).properties : undefined
  return isObject(properties) ? properties : {}
}

function defaultsOf(document: ServedDocument, collection: Collection): Record<string, unknown> {
  const entries = Object.entries(propertiesOf(document, collection)).flatMap(([name, property]) => {
    const schema = isObject(property) && 'default' in property ? property : document.deref(property)
    return 'default' in schema ? [[name, schema.default]] : []
  })
  return Object.fromEntries(entries)
}

/** An integer id field counts up (1, 2, ...); a uuid one was generated. */
function withIntegerId(
  document: ServedDocument,
  collection: Collection,
  record: Record<string, unknown>,
  next: number,
): DocumentedRecord {
  const idSchema = document.deref(propertiesOf(document, collection)[collection.idField])
  return idSchema.type === 'integer' ? { ...record, [collection.idField]: next } : record
}

const asRecord = (value: unknown): Record<string, unknown> => (isObject(value) ? value : { value })

/** JSON with sorted keys: the same body gives the same text. */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_, item) =>
    isObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item,
  ) ?? ''

/** FNV-1a: a string as a number, to seed a stream with. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}
