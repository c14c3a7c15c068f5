import { Collection } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * An @msw/data collection that counts its changes, so that indexes derived from it can tell
 * when to rebuild. The count moves when a write has finished (not in a hook, which runs
 * before the record is stored), so a reader never caches an index that misses a record.
 */
export class VersionedCollection<Schema extends StandardSchemaV1> extends Collection<Schema> {
  #version = 0

  constructor(options: ConstructorParameters<typeof Collection<Schema>>[0]) {
    super(options)
    // Wrapping (rather than overriding) keeps @msw/data's generic method signatures intact.
    const methods = this as unknown as Record<WriteMethod, (...args: unknown[]) => unknown>
    for (const name of WRITE_METHODS) {
      const write = methods[name].bind(this)
      methods[name] = (...args) => {
        const result = write(...args)
        if (result instanceof Promise) return result.finally(() => this.#version++)
        this.#version++
        return result
      }
    }
  }

  get version(): number {
    return this.#version
  }
}

const WRITE_METHODS = ['create', 'update', 'updateMany', 'delete', 'deleteMany', 'clear'] as const
type WriteMethod = (typeof WRITE_METHODS)[number]

/**
 * A value computed from a collection's records, rebuilt only after the collection changed.
 * @example const byId = derived(teams, (records) => new Map(records.map((t) => [t.id, t])))
 */
export function derived<Record, Value>(
  collection: { readonly version: number; all(): Record[] },
  build: (records: readonly Record[]) => Value,
): () => Value {
  let builtAt = -1
  let value: Value
  return () => {
    if (builtAt !== collection.version) {
      builtAt = collection.version
      value = build(collection.all())
    }
    return value
  }
}
