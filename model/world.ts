import { DemographicDimension, DemographicValue, Persona, Policy, PolicyRule, Team } from './schemas.js'
import { derived, TrackedCollection } from './tracked-collection.js'
import { appendValue, indexValues, type DimensionValues } from './dimension-values.js'
import { indexPersonas, type TeamPersonas, withPersona } from './persona-index.js'
import { adoptAll, canAdopt } from './msw-data-internals.js'
import { NO_DOCUMENTED, type DocumentedContents, type DocumentedRecord } from './documented.js'

/** The record schema of each collection of a world, by the collection's name. */
export const RECORD_SCHEMAS = {
  teams: Team,
  personas: Persona,
  dimensions: DemographicDimension,
  values: DemographicValue,
  policies: Policy,
  rules: PolicyRule,
} as const

export type CollectionName = keyof typeof RECORD_SCHEMAS
/** The collections of a world, in the order a state file holds them. */
export const COLLECTION_NAMES = Object.keys(RECORD_SCHEMAS) as CollectionName[]
type Collections = { [Name in CollectionName]: TrackedCollection<(typeof RECORD_SCHEMAS)[Name]> }
/**
 * What a watcher of a world hears: records stored (by `createAll`), a record deleted (by @msw/data), a served
 * document's collection replaced (`before`: every such collection as it was).
 */
export interface WorldWatcher {
  stored?(name: CollectionName, records: readonly object[]): void
  deleted?(name: CollectionName, record: object): void
  documented?(collection: string, before: DocumentedContents): void
}

/**
 * The mock's whole state: one @msw/data collection per record type, built from the record
 * schemas, and the indexes the operations read, kept in step with the collections.
 * Handlers never scan a collection per request; they read an index.
 *
 * A world can be a copy-on-write fork of another ({@link World.fork}): it shares the other's
 * records and indexes until a collection of its own is touched, which then holds the same
 * record objects (records are replaced, never changed, by @msw/data) and is the fork's alone.
 * A fork costs a few objects, whatever the size of the world it forks; the world forked must
 * not be written afterwards (core/instance/bases.ts keeps such worlds out of reach).
 */
export class World {
  readonly #own: Partial<Collections> = {}
  readonly #base: World | undefined
  readonly #watchers: WorldWatcher[] = []
  /** Each own collection's version right after it took its base's records. */
  readonly #adoptedAt: Partial<Record<CollectionName, number>> = {}
  /** What each index does as its collection becomes this world's own. */
  readonly #madeOwn: Partial<Record<CollectionName, Array<(collection: object) => void>>> = {}
  #writes: Promise<unknown> = Promise.resolve()
  /** The served document's collections, where this world wrote them (else its base's). */
  #documented: DocumentedContents | undefined
  #documentedWrites = 0
  /** The random stream new records' ids are drawn from, for a world loaded from a state (see {@link drawIdsFrom}). */
  #idStream: number | undefined

  /** Personas by team, in list order (created_at descending, then id ascending). */
  readonly personasByTeam: () => Map<string, TeamPersonas> = this.#index(
    'personas',
    indexPersonas,
    (base) => base.personasByTeam(),
    { insert: withPersona },
  )
  readonly dimensionById: () => Map<string, DemographicDimension> = this.#index(
    'dimensions',
    (records) => byKey(records, (dimension) => dimension.id),
    (base) => base.dimensionById(),
  )
  readonly policyById: () => Map<string, Policy> = this.#index(
    'policies',
    (records) => byKey(records, (policy) => policy.id),
    (base) => base.policyById(),
  )
  /** Rules by policy, in list order (created_at ascending, then rule_id ascending). */
  readonly rulesByPolicy: () => Map<string, PolicyRule[]> = this.#index(
    'rules',
    (records) => groupSorted(records, (rule) => rule.policy_id, compareRules),
    (base) => base.rulesByPolicy(),
  )
  /** Values by dimension, in storage order, with their names and largest sort order (added to in place). */
  readonly valuesByDimension: () => Map<string, DimensionValues> = this.#index(
    'values',
    indexValues,
    (base) => base.valuesByDimension(),
    { append: appendValue },
  )

  /**
   * An empty world (`load` fills it; `createWorld` seeds one), or with `base` a fork of it.
   * @example const world = await new World(1).load(contents)
   */
  constructor(
    readonly seed: number,
    base?: World,
  ) {
    this.#base = base
  }

  /**
   * A copy-on-write fork of this world: O(1), sharing every record until it writes. Where
   * @msw/data's storage cannot be shared (model/msw-data-internals.ts), a copy.
   */
  async fork(): Promise<World> {
    return canAdopt() ? new World(this.seed, this) : this.#copy()
  }

  get teams(): Collections['teams'] {
    return this.#collection('teams')
  }
  get personas(): Collections['personas'] {
    return this.#collection('personas')
  }
  get dimensions(): Collections['dimensions'] {
    return this.#collection('dimensions')
  }
  get values(): Collections['values'] {
    return this.#collection('values')
  }
  get policies(): Collections['policies'] {
    return this.#collection('policies')
  }
  get rules(): Collections['rules'] {
    return this.#collection('rules')
  }

  /**
   * A world that keeps what this one holds now, whatever this one does next (a snapshot to
   * fork from): the same records, and this world's base where it has no collection of its own.
   * Where @msw/data's storage cannot be shared, a copy.
   */
  async snapshot(): Promise<World> {
    if (!canAdopt()) return this.#copy()
    const kept = new World(this.seed, this.#base)
    for (const name of this.ownCollections) kept.#adopt(name, this.#own[name]!.all())
    kept.#documented = this.#documented
    kept.#idStream = this.#idStream
    return kept
  }

  /** Moves with every write to any collection: what persistence watches. */
  get version(): string {
    return [...COLLECTION_NAMES.map((name) => this.#own[name]?.version ?? '-'), this.#documentedWrites].join('.')
  }

  /** The records of a served document's collection (undefined: none written, the seeded ones stand). */
  documented(collection: string): readonly DocumentedRecord[] | undefined {
    return this.documentedContents[collection]
  }

  /** Every collection of a served document this world (or its base) wrote. Read only. */
  get documentedContents(): DocumentedContents {
    return this.#documented ?? this.#base?.documentedContents ?? NO_DOCUMENTED
  }

  /** Replaces the records of a served document's collection. */
  setDocumented(collection: string, records: readonly DocumentedRecord[]): void {
    const before = this.documentedContents
    this.#documented = Object.freeze({ ...before, [collection]: Object.freeze([...records]) })
    this.#documentedWrites++
    for (const watcher of this.#watchers) watcher.documented?.(collection, before)
  }

  /** The world this one is a fork of (undefined: a world of its own). */
  get forkedFrom(): World | undefined {
    return this.#base
  }

  /** Collections this world holds records of its own in (a fork's others are its base's). */
  get ownCollections(): CollectionName[] {
    return COLLECTION_NAMES.filter((name) => this.#own[name] !== undefined)
  }

  /**
   * Runs a write with no other write of this world in between, so that concurrent bulk adds
   * each see the others' values (no duplicate, no lost value, unique sort orders).
   */
  exclusive<T>(write: () => Promise<T>): Promise<T> {
    const result = this.#writes.then(write)
    this.#writes = result.catch(() => undefined)
    return result
  }

  /**
   * Stores records in the (empty) collections, validating each against its schema.
   * @example await new World(1).load(buildContents())
   */
  async load(contents: WorldContents): Promise<this> {
    for (const name of COLLECTION_NAMES) await this.#collection(name).createAll(contents[name] as never[])
    return this
  }

  /**
   * The teams, dimensions and policies, in storage order, read only: the small collections a recorded contract
   * names by position (`contents()` would also read the personas and values, which can be hundreds of thousands).
   */
  referenced(): Pick<WorldContents, 'teams' | 'dimensions' | 'policies'> {
    return {
      teams: this.#records('teams') as WorldContents['teams'],
      dimensions: this.#records('dimensions') as WorldContents['dimensions'],
      policies: this.#records('policies') as WorldContents['policies'],
    }
  }

  /** Every record, collection by collection, in storage order: what a snapshot holds. Read only. */
  contents(): WorldContents {
    const records = <Name extends CollectionName>(name: Name) => this.#records(name) as WorldContents[Name]
    return {
      teams: records('teams'),
      personas: records('personas'),
      dimensions: records('dimensions'),
      values: records('values'),
      policies: records('policies'),
      rules: records('rules'),
    }
  }

  /**
   * Tells `watcher` of every change to any collection of this world: records stored by
   * `createAll` (after), a record deleted by @msw/data's `delete`, `deleteMany` or `clear` (as it goes),
   * a served document's collection replaced by {@link setDocumented} (after). A state loaded whole is not told.
   */
  watch(watcher: WorldWatcher): void {
    this.#watchers.push(watcher)
    for (const name of this.ownCollections) this.#attach(name, watcher)
  }

  /** A world of its own holding what this one holds. */
  async #copy(): Promise<World> {
    const copy = await new World(this.seed).load(this.contents())
    copy.#documented = this.documentedContents
    copy.#idStream = this.idStream
    return copy
  }

  /**
   * Where factories draw new records' ids from: undefined for a seeded world (the seed's own stream), else the
   * stream of the state this world was loaded from. A world loaded again after a restart would otherwise draw the
   * ids it drew before, and give a new record the id of one deleted since.
   */
  get idStream(): number | undefined {
    return this.#idStream ?? this.#base?.idStream
  }

  /** Draws new records' ids from `stream` (a number made from the state the world was loaded from). */
  drawIdsFrom(stream: number): this {
    this.#idStream = stream
    return this
  }

  /** Replaces every collection of a served document (a state file's). */
  loadDocumented(contents: DocumentedContents): this {
    this.#documented = contents
    this.#documentedWrites++
    return this
  }

  /** A collection's records without making it the fork's own. */
  #records(name: CollectionName): readonly object[] {
    const base = this.#base
    return this.#own[name]?.all() ?? (base ? base.#records(name) : [])
  }

  #collection<Name extends CollectionName>(name: Name): Collections[Name] {
    const own = this.#own[name]
    if (own) return own
    const collection = this.#adopt(name, this.#base ? this.#base.#records(name) : [])
    if (this.#base) this.#adoptedAt[name] = collection.version
    for (const makeOwn of this.#madeOwn[name] ?? []) makeOwn(collection)
    return collection
  }

  /** Makes a collection this world's own, holding `records` (the same objects). */
  #adopt<Name extends CollectionName>(name: Name, records: readonly object[]): Collections[Name] {
    const collection = new TrackedCollection({ schema: RECORD_SCHEMAS[name] }) as Collections[Name]
    if (records.length > 0) adoptAll(collection as never, records)
    this.#own[name] = collection
    for (const watcher of this.#watchers) this.#attach(name, watcher)
    return collection
  }

  #attach(name: CollectionName, watcher: WorldWatcher): void {
    const collection = this.#own[name]!
    if (watcher.stored) collection.onStored((_, records) => watcher.stored!(name, records))
    if (watcher.deleted) collection.hooks.on('delete', (event) => watcher.deleted!(name, event.data.deletedRecord))
  }

  /**
   * An index of one collection. A fork reads its base's index until the collection is its own;
   * then it keeps its own, made as the collection becomes the fork's (so it hears every store),
   * starting from the base's while nothing changed, unless the index is added to in place by
   * `append`, which must not reach the base's (`insert` leaves the old value as it was).
   */
  #index<Name extends CollectionName, Value>(
    name: Name,
    build: (records: readonly StoredRecord<Name>[]) => Value,
    inherited: (base: World) => Value,
    changes: {
      append?: (value: Value, record: StoredRecord<Name>) => void
      insert?: (value: Value, record: StoredRecord<Name>) => Value
    } = {},
  ): () => Value {
    let own: (() => Value) | undefined
    const makeOwn = (collection: Collections[Name]) => {
      const adoptedAt = this.#adoptedAt[name]
      own ??= derived(collection as never, build, {
        ...changes,
        initial:
          this.#base && !changes.append && adoptedAt !== undefined
            ? { value: inherited(this.#base), version: adoptedAt }
            : undefined,
      })
    }
    ;(this.#madeOwn[name] ??= []).push(makeOwn as never)
    return () => {
      if (!this.#own[name] && this.#base) return inherited(this.#base)
      makeOwn(this.#collection(name))
      return own!()
    }
  }
}

type StoredRecord<Name extends CollectionName> = WorldContents[Name][number]

export interface WorldContents {
  teams: Team[]
  personas: Persona[]
  dimensions: DemographicDimension[]
  values: DemographicValue[]
  policies: Policy[]
  rules: PolicyRule[]
}

const byKey = <T>(records: readonly T[], key: (record: T) => string) =>
  new Map(records.map((record) => [key(record), record]))

function groupSorted<T>(records: readonly T[], key: (record: T) => string, compare: (a: T, b: T) => number) {
  const groups = new Map<string, T[]>()
  for (const record of records) {
    const group = groups.get(key(record))
    if (group) group.push(record)
    else groups.set(key(record), [record])
  }
  for (const group of groups.values()) group.sort(compare)
  return groups
}

const compareRules = (a: PolicyRule, b: PolicyRule) => a.created_at - b.created_at || compareText(a.rule_id, b.rule_id)

/** Python's string order: by code point (JS `<` compares UTF-16 units, which differs past U+FFFF). */
function compareText(a: string, b: string): number {
  if (a === b) return 0
  const left = [...a]
  const right = [...b]
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i] as string).codePointAt(0)! - (right[i] as string).codePointAt(0)!
    if (diff !== 0) return diff
  }
  return left.length - right.length
}
