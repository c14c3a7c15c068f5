import { Collection } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { storeAll } from './msw-data-internals.js'

/**
 * An @msw/data collection whose changes can be seen, so that indexes derived from it know
 * when to rebuild: its {@link TrackedCollection.version} moves with every write, whether the
 * mock made it or a test did through @msw/data's own API. Creates change the count;
 * updates and deletes are heard through @msw/data's public hooks.
 */
export class TrackedCollection<Schema extends StandardSchemaV1> extends Collection<Schema> {
  #changes = 0
  readonly #schema: Schema
  readonly #stored: Array<(before: number, records: readonly object[]) => void> = []

  constructor(options: ConstructorParameters<typeof Collection<Schema>>[0]) {
    super(options)
    this.#schema = options.schema
    this.hooks.on('update', () => this.#changedSoon())
    this.hooks.on('delete', () => this.#changedSoon())
  }

  /** Moves with every write: records created, updated or deleted. */
  get version(): number {
    return this.#changes * 2 ** 26 + this.count()
  }

  /**
   * Stores many records, each validated by the collection's schema as `create` validates it,
   * without `create`'s per-record cost (model/msw-data-internals.ts).
   * @returns the stored records, in order
   * @example await world.personas.createAll(personas)
   */
  async createAll(
    records: ReadonlyArray<StandardSchemaV1.InferInput<Schema>>,
  ): Promise<Array<StandardSchemaV1.InferOutput<Schema>>> {
    const before = this.version
    const stored = await storeAll(this as never, this.#schema, records)
    for (const listener of this.#stored) listener(before, stored)
    return stored as Array<StandardSchemaV1.InferOutput<Schema>>
  }

  /** Calls `listener` after every `createAll`, with the version before it and the records it stored. */
  onStored(listener: (before: number, records: readonly object[]) => void): void {
    this.#stored.push(listener)
  }

  /**
   * @msw/data tells its hooks before a change is made, and an update lands only after an
   * await: the version moves now, and again once the change has landed, so an index read in
   * between is rebuilt once more.
   */
  #changedSoon(): void {
    this.#changes++
    setTimeout(() => this.#changes++, 0)
  }
}

/** Records stored at once beyond which `insert` is not used: the value is rebuilt instead. */
const INSERT_AT_MOST = 64

/**
 * A value computed from a collection's records, rebuilt on the first read after the
 * collection changed. Records a `createAll` stored, when nothing else changed since the value
 * was built, are added without a rebuild: in place by `append` (a bulk add never rescans), or
 * by `insert`, which gives a new value and leaves the old one as it was (a few records; many
 * are rebuilt). With `initial`, the value is known already for that version of the collection
 * (a fork's, from its base).
 * @example const byId = derived(teams, (records) => new Map(records.map((t) => [t.id, t])))
 */
export function derived<Record, Value>(
  collection: { readonly version: number; all(): Record[]; onStored: TrackedCollection<StandardSchemaV1>['onStored'] },
  build: (records: readonly Record[]) => Value,
  options: {
    append?: ((value: Value, record: Record) => void) | undefined
    insert?: ((value: Value, record: Record) => Value) | undefined
    initial?: { value: Value; version: number } | undefined
  } = {},
): () => Value {
  let value = options.initial?.value
  let builtAt = options.initial?.version ?? -1
  const { append, insert } = options
  if (append || insert) {
    collection.onStored((before, records) => {
      if (value === undefined || builtAt !== before) return
      if (!append && records.length > INSERT_AT_MOST) return
      for (const record of records) {
        if (append) append(value, record as Record)
        else value = insert!(value, record as Record)
      }
      builtAt = collection.version
    })
  }
  return () => {
    if (value === undefined || builtAt !== collection.version) {
      value = build(collection.all())
      builtAt = collection.version
    }
    return value
  }
}
