import type { Query } from '@msw/data'
import type { z } from 'zod'
import { RECORD_SCHEMAS, type World } from '../model/world.js'
import { DEFAULTS, MissingReference, type Overrides, type RecordCollection, type StoredRecordOf } from './defaults.js'
import { seededFaker, seededUuid } from './random.js'
import { findProblems, type RecordProblem } from './record-checks.js'

/** What the factories of one mock instance read: its current world and its clock. */
export interface RecordSource {
  readonly world: World
  readonly clock: { nowSeconds(): number }
}

/** The collections a record kind is stored in, by the kind's singular name (`mock.build.persona`). */
const KINDS = {
  team: 'teams',
  persona: 'personas',
  dimension: 'dimensions',
  value: 'values',
  policy: 'policies',
  rule: 'rules',
} as const satisfies Record<string, RecordCollection>
type Kinds = typeof KINDS

/** `mock.build`: a valid record of each kind, not stored. */
export type Builders = { [Kind in keyof Kinds]: (overrides?: Overrides<Kinds[Kind]>) => StoredRecordOf<Kinds[Kind]> }
/** `mock.create`: a valid record of each kind, stored in the current world. */
export type Creators = {
  [Kind in keyof Kinds]: (overrides?: Overrides<Kinds[Kind]>) => Promise<StoredRecordOf<Kinds[Kind]>>
}

/** Overrides that do not make a valid record (or could not be stored); nothing was stored. */
export class RecordError extends Error {
  override name = 'RecordError'
  constructor(
    readonly collection: RecordCollection,
    readonly problems: readonly RecordProblem[],
  ) {
    super(
      `Invalid ${collection}: ${problems.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join('; ')}`,
    )
  }
}

/** The stream of seeded ids and texts of factory records: apart from the seeded world's (parts 1 to 5). */
const FACTORY_STREAM = 6

/**
 * The factories of one mock instance. Record number n of a world (counted from 0 since the
 * world was seeded, reset or imported) gets its id and texts from a random stream seeded by
 * the world's seed and n, so the same test gives the same ids in every run; its timestamps
 * are the instance's clock.
 * @example
 * const factory = new RecordFactory(instance)
 * await factory.create('personas', [{ name: 'Ada', intent: 'adversarial' }])
 */
export class RecordFactory {
  #world: World | undefined
  #count = 0
  /** The ids each collection held at a version; keyed weakly, so a replaced world's collections go with it. */
  readonly #storedIdsCache = new WeakMap<object, { version: unknown; ids: StoredIds }>()

  constructor(private readonly source: RecordSource) {}

  /** `build.persona(overrides)` and the like. */
  readonly builders: Builders = kinds(
    (collection) => (overrides?: object) => this.build(collection, overrides ?? {})[0],
  )

  /** `create.persona(overrides)` and the like. */
  readonly creators: Creators = kinds(
    (collection) => async (overrides?: object) => (await this.create(collection, overrides ?? {}))[0],
  )

  /**
   * Valid records of a collection, one per overrides (one object, or an array of them), not
   * stored. Each is checked as `create` checks it, but for ids and values already stored.
   * @throws RecordError listing every problem (each path starts with the item's index for an array)
   */
  build<Name extends RecordCollection>(
    collection: Name,
    overrides: Overrides<Name> | ReadonlyArray<Overrides<Name>>,
  ): Array<StoredRecordOf<Name>> {
    return this.#plan(this.source.world, collection, overrides, false)
  }

  /**
   * Stores records in a collection of the current world, all or none: they show up in the API's
   * answers at once. The ids, references and values are checked against the world.
   * @returns the stored records
   * @throws RecordError listing every problem; nothing is stored
   */
  create<Name extends RecordCollection>(
    collection: Name,
    overrides: Overrides<Name> | ReadonlyArray<Overrides<Name>>,
  ): Promise<Array<StoredRecordOf<Name>>> {
    const world = this.source.world
    return world.exclusive(async () => {
      const records = this.#plan(world, collection, overrides, true)
      const stored = (await world[collection].createAll(records as never[])) as Array<StoredRecordOf<Name>>
      const known = this.#storedIdsCache.get(world[collection])
      if (known) {
        for (const record of stored) known.ids.add(record.id)
        known.version = world[collection].version
      }
      return stored
    })
  }

  /**
   * Deletes a record of the current world, and the records that belong to it: a team's
   * personas and policies, a dimension's values, a policy's rules.
   * @returns whether there was such a record
   */
  delete(collection: RecordCollection, id: string): Promise<boolean> {
    const world = this.source.world
    return world.exclusive(async () => this.#delete(world, collection, id))
  }

  #delete(world: World, collection: RecordCollection, id: string): boolean {
    const records = world[collection] as unknown as { delete(predicate: (query: Query<Id>) => Query<Id>): unknown }
    const deleted = records.delete((query) => query.where({ id }))
    if (!deleted) return false
    if (collection === 'teams') {
      world.personas.deleteMany((query) => query.where({ team_id: id }))
      for (const policy of world.policies.deleteMany((query) => query.where({ team_id: id }))) {
        world.rules.deleteMany((query) => query.where({ policy_id: policy.id }))
      }
    }
    if (collection === 'dimensions') world.values.deleteMany((query) => query.where({ dimension_id: id }))
    if (collection === 'policies') world.rules.deleteMany((query) => query.where({ policy_id: id }))
    return true
  }

  #plan<Name extends RecordCollection>(
    world: World,
    collection: Name,
    given: Overrides<Name> | ReadonlyArray<Overrides<Name>>,
    stored: boolean,
  ): Array<StoredRecordOf<Name>> {
    this.#use(world)
    const overrides: ReadonlyArray<Overrides<Name>> = Array.isArray(given) ? given : [given]
    const start = this.#count
    const problems: RecordProblem[] = []
    const records: Array<StoredRecordOf<Name>> = []
    // Every item as far as it was made (its fields merged where its schema refused them), for the checks against
    // the world, so that one refusal names every problem: a missing team beside a field of the wrong type.
    const candidates: Array<{ index: number; record: object }> = []
    const refusedFields = new Set<string>()
    const taken = stored ? this.#idsOf(world, collection) : new Set<string>()
    const at = (index: number, path: string) => (Array.isArray(given) ? `[${index}]${path ? `.${path}` : ''}` : path)
    overrides.forEach((item, index) => {
      const made = this.#make(world, collection, item, records, taken)
      if ('problems' in made) {
        problems.push(...made.problems.map((p) => ({ ...p, path: at(index, p.path) })))
        for (const problem of made.problems) refusedFields.add(`${index}:${problem.path.split('.')[0]}`)
        if (made.merged) candidates.push({ index, record: made.merged })
      } else {
        records.push(made.record)
        candidates.push({ index, record: made.record })
      }
    })
    const checked = findProblems(
      world,
      collection,
      candidates.map(({ record }) => record),
      stored ? taken : undefined,
    )
    problems.push(
      ...checked
        .map((problem) => ({ ...problem, index: candidates[problem.index]!.index }))
        .filter(({ index, path }) => !refusedFields.has(`${index}:${path}`))
        .map(atIndex(at)),
    )
    if (problems.length > 0) {
      this.#count = start // nothing was built: the next record gets the same id
      throw new RecordError(collection, problems)
    }
    return records
  }

  /** One record: defaults under the overrides, parsed by the collection's schema. */
  #make<Name extends RecordCollection>(
    world: World,
    collection: Name,
    overrides: Overrides<Name>,
    pending: readonly object[],
    taken: Pick<ReadonlySet<string>, 'has'>,
  ): { record: StoredRecordOf<Name> } | { problems: RecordProblem[]; merged?: object } {
    if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
      return { problems: [{ path: '', message: 'expected an object of fields' }] }
    }
    let faker: ReturnType<typeof seededFaker>
    let id: string
    do {
      faker = seededFaker(
        world.seed,
        FACTORY_STREAM,
        ...(world.idStream === undefined ? [] : [world.idStream]),
        this.#count++,
      )
      id = seededUuid(faker)
    } while (taken.has(id) && (overrides as { id?: unknown }).id === undefined)
    let defaults: Record<string, unknown>
    try {
      const now = this.source.clock.nowSeconds()
      defaults = DEFAULTS[collection]({ world, id, faker, now, pending }, overrides as never)
    } catch (error) {
      if (error instanceof MissingReference) return { problems: [{ path: error.field, message: error.message }] }
      throw error
    }
    const dropped = droppedProtoKeys(overrides)
    if (dropped.length > 0) return { problems: dropped }
    const merged = merge(defaults, overrides)
    const parsed = RECORD_SCHEMAS[collection].strict().safeParse(merged)
    if (parsed.success) return { record: parsed.data as StoredRecordOf<Name> }
    return { problems: parsed.error.issues.flatMap(problemsOf), merged }
  }

  /** Records are built for `world` now: the count starts over with every new world (a reset, an import). */
  #use(world: World): void {
    if (world === this.#world) return
    this.#world = world
    this.#count = 0
  }

  /** The ids a collection holds, kept from one create to the next while nothing else changed it. */
  #idsOf(world: World, collection: RecordCollection): StoredIds {
    const records = world[collection]
    let known = this.#storedIdsCache.get(records)
    if (!known || known.version !== records.version) {
      known = { version: records.version, ids: new StoredIds(() => records.all()) }
      this.#storedIdsCache.set(records, known)
    }
    return known.ids
  }
}

type Id = { id: string }

/** Lookups by scanning after which the ids are put in a set. */
const SCANS_BEFORE_SET = 16

/**
 * The ids of a collection's records, looked up by a scan until asked often: a fork's first
 * record in a collection of 200,000 then costs two scans, not a set of 200,000 ids.
 */
class StoredIds {
  #set: Set<string> | undefined
  #scans = 0

  constructor(private readonly records: () => readonly Id[]) {}

  has(id: string): boolean {
    if (this.#set) return this.#set.has(id)
    if (++this.#scans > SCANS_BEFORE_SET) return (this.#set = new Set(this.records().map((r) => r.id))).has(id)
    return this.records().some((record) => record.id === id)
  }

  /** A record stored since (a scan sees it anyway). */
  add(id: string): void {
    this.#set?.add(id)
  }
}

function kinds<Make extends (collection: RecordCollection) => unknown>(make: Make) {
  return Object.fromEntries(Object.entries(KINDS).map(([kind, collection]) => [kind, make(collection)])) as never
}

/** `overrides` over `defaults`; plain objects are merged field by field (a partial consequence keeps the rest). */
function merge(defaults: Record<string, unknown>, overrides: object): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    const base = Object.hasOwn(defaults, key) ? defaults[key] : undefined
    // Defined, not assigned: a JSON key named `__proto__` is a member, where `merged[key] =` would set the prototype.
    Object.defineProperty(merged, key, {
      value: isPlainObject(base) && isPlainObject(value) ? merge(base, value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return merged
}

/** Where zod would leave a `__proto__` key out unseen: every such key but in a free-form `value_metadata`. */
function droppedProtoKeys(value: unknown, path = ''): RecordProblem[] {
  if (typeof value !== 'object' || value === null || path === 'value_metadata') return []
  const own = Object.hasOwn(value, '__proto__')
    ? [{ path: join(path, '__proto__'), message: 'a key named __proto__ is kept only in value_metadata' }]
    : []
  return [
    ...own,
    ...Object.entries(value).flatMap(([key, member]) =>
      key === '__proto__' ? [] : droppedProtoKeys(member, Array.isArray(value) ? `${path}[${key}]` : join(path, key)),
    ),
  ]
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype

/** A zod issue as problems: one per unknown field, else one at the issue's path. */
function problemsOf(issue: z.core.$ZodIssue): RecordProblem[] {
  const path = pathOf(issue.path)
  if (issue.code !== 'unrecognized_keys') return [{ path, message: issue.message }]
  return issue.keys.map((key) => ({ path: pathOf([...issue.path, key]), message: 'not a field of this record' }))
}

const pathOf = (path: readonly PropertyKey[]) =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`)).join('')

const atIndex = (at: (index: number, path: string) => string) => (problem: RecordProblem & { index: number }) => ({
  path: at(problem.index, problem.path),
  message: problem.message,
})

export type { Overrides, RecordCollection, StoredRecordOf } from './defaults.js'
