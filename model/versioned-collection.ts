import { Collection } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * An @msw/data collection that counts its changes, so that indexes derived from it can tell
 * when to rebuild. The count moves when a write has finished (not in a hook, which runs
 * before the record is stored), so a reader never caches an index that misses a record.
 */
export class VersionedCollection<Schema extends StandardSchemaV1> extends Collection<Schema> {
  #version = 0
  #listeners: Array<(created: unknown) => void> = []

  constructor(options: ConstructorParameters<typeof Collection<Schema>>[0]) {
    super(options)
    // Wrapping (rather than overriding) keeps @msw/data's generic method signatures intact.
    const methods = this as unknown as Record<WriteMethod, (...args: unknown[]) => unknown>
    for (const name of WRITE_METHODS) {
      const write = methods[name].bind(this)
      methods[name] = (...args) => {
        const result = write(...args)
        if (result instanceof Promise) return result.then((value) => (this.#changed(name === 'create' ? value : undefined), value), (error) => (this.#changed(undefined), Promise.reject(error)))
        this.#changed(undefined)
        return result
      }
    }
  }

  get version(): number {
    return this.#version
  }

  /**
   * Calls `listener` after every finished write: with the record a `create` stored, or
   * `undefined` for any other write (after which derived values must be rebuilt).
   */
  onWrite(listener: (created: unknown) => void): void {
    this.#listeners.push(listener)
  }

  #changed(created: unknown): void {
    this.#version++
    for (const listener of this.#listeners) listener(created)
  }
}

const WRITE_METHODS = ['create', 'update', 'updateMany', 'delete', 'deleteMany', 'clear'] as const
type WriteMethod = (typeof WRITE_METHODS)[number]

/**
 * A value computed from a collection's records, kept in step with it: `append` adds a
 * created record in place (when given), any other write makes the next read rebuild it.
 * @example const byId = derived(teams, (records) => new Map(records.map((t) => [t.id, t])))
 */
export function derived<Record, Value>(
  collection: { all(): Record[]; onWrite(listener: (created: unknown) => void): void },
  build: (records: readonly Record[]) => Value,
  append?: (value: Value, record: Record) => void,
): () => Value {
  let value: Value | undefined
  collection.onWrite((created) => {
    if (value !== undefined && append && created !== undefined) append(value, created as Record)
    else value = undefined
  })
  return () => (value ??= build(collection.all()))
}
