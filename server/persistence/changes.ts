import { Query } from '@msw/data'
import type { MockInstance } from '../../core/instance/instance.js'
import { putBack } from '../../model/msw-data-internals.js'
import { COLLECTION_NAMES, type CollectionName, type World } from '../../model/world.js'
import { STATE_JSON_DEPTH } from '../../model/state/index.js'
import { decodeJsonBody } from '../../fastapi/python/json-decode.js'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'
import { documentedChangeJson, replayDocumented } from './documented-changes.js'
import { PyDict, PyFloat, type PyValue } from '../../fastapi/python/value.js'

/** One change of the default world, as the persistence keeps it: its log line and how to take it back. */
export interface Change {
  /**
   * The log line: `{"stored": <collection>, "records": [...]}` (records added), or a served document's collection
   * as a write changed it (documented-changes.ts), the records written as a state file writes them. Undefined for a
   * whole new world (a reset, an import) or a delete: a snapshot carries it.
   */
  readonly json: string | undefined
  /** Takes the change back out of the world; synchronous, so nothing runs between the undos of a rollback. */
  undo(): void
}

/** What deleting records needs of a collection, whatever its schema. */
interface Deletable {
  deleteMany(query: Query<object>): unknown
}

/**
 * Reports every change to an instance's world as it is made: records stored in any collection of
 * the current world (a bulk add), a record deleted, a served document's collection written (its
 * create, update and delete), and a world swapped in whole (a reset, an import). Records
 * stored in a world that is no longer current (a write that lost a race with a reset) change
 * nothing that is kept, and are not reported.
 */
export function watchChanges(instance: MockInstance, onChange: (change: Change) => void): void {
  // Marks the worlds already watched; weakly, so a world swapped out for good is not held.
  const watchedWorlds = new WeakSet<World>()
  // Undoing a store deletes its records: that is taking a change back, not a change.
  let undoing = false
  const undone = (undo: () => void) => () => {
    undoing = true
    try {
      undo()
    } finally {
      undoing = false
    }
  }
  const watch = (world: World) => {
    if (watchedWorlds.has(world)) return
    watchedWorlds.add(world)
    world.watch({
      stored: (name, records) => {
        if (instance.world === world && records.length > 0) {
          const change = stored(world, name, records)
          onChange({ json: change.json, undo: undone(change.undo) })
        }
      },
      // A delete is not logged: it asks for a snapshot (which holds the world without the record)
      // before its answer, as a reset does, and is undone by putting the record back.
      deleted: (name, record) => {
        if (instance.world === world && !undoing)
          onChange({ json: undefined, undo: () => putBack(world[name] as never, [record]) })
      },
      // A served document's collection is logged whole at its first write, then by what each write did to it
      // (documented-changes.ts), and undone by putting every such collection back as it was.
      documented: (collection, before) => {
        if (instance.world === world)
          onChange({
            json: documentedChangeJson(collection, before[collection], world.documented(collection) ?? []),
            undo: () => world.loadDocumented(before),
          })
      },
    })
  }
  watch(instance.world)
  instance.onSwap((previous) => {
    watch(instance.world)
    onChange({ json: undefined, undo: () => instance.restore(previous) })
  })
}

function stored(world: World, name: CollectionName, records: readonly object[]): Change {
  return {
    json: encodePythonJson({ stored: name, records }),
    undo: () => {
      const added = new Set(records)
      ;(world[name] as unknown as Deletable).deleteMany(new Query((record: object) => added.has(record)))
    },
  }
}

/**
 * Stores again the records of a logged change (at start, replaying the log); each is checked by its
 * collection's schema as it is stored.
 * @throws Error when the line is not a logged change, or a record does not fit
 */
export async function replay(instance: MockInstance, json: string, ids: ReplayedIds = new Map()): Promise<void> {
  const decoded = decodeJsonBody(new TextEncoder().encode(json), STATE_JSON_DEPTH)
  const line = decoded.ok ? decoded.value : undefined
  if (replayDocumented(instance.world, line instanceof PyDict ? toPlain(line, false) : undefined)) return
  const change = (line === undefined ? undefined : toPlain(line, true)) as {
    stored?: CollectionName
    records?: never[]
  }
  if (!COLLECTION_NAMES.includes(change?.stored as never) || !Array.isArray(change.records))
    throw new Error('not a change of an agent-console-mock log')
  refuseStoredTwice(instance.world, change.stored!, change.records, ids)
  await instance.world[change.stored!].createAll(change.records)
}

/** The ids of each collection as a replay goes: its records' at the first change of it, then each change's. */
export type ReplayedIds = Map<CollectionName, Set<unknown>>

/**
 * Refuses a change that stores a record of an id the collection holds: a log line repeated (its checksum holds,
 * and its flush number may too) would otherwise replay into a world that holds the record twice, which a
 * restart from its snapshot then refuses.
 */
function refuseStoredTwice(world: World, name: CollectionName, records: readonly unknown[], replayed: ReplayedIds) {
  let ids = replayed.get(name)
  if (!ids) replayed.set(name, (ids = new Set(world[name].all().map((record) => record.id))))
  for (const record of records) {
    const id = (record as { id?: unknown }).id
    if (ids.has(id)) throw new Error(`it stores ${name} ${JSON.stringify(id)} again: a line was repeated`)
    ids.add(id)
  }
}

/**
 * Python values to the records' plain shapes, as a state file is read: with `keepMetadata`, a mock record's
 * `value_metadata` stays a Python dict (a served document's records are plain JSON throughout).
 */
function toPlain(value: PyValue, keepMetadata: boolean): unknown {
  if (value instanceof PyFloat) return value.value
  if (Array.isArray(value)) return value.map((item) => toPlain(item, keepMetadata))
  if (value instanceof PyDict) {
    return Object.fromEntries(
      [...value].map(([key, item]) => [
        key,
        keepMetadata && key === 'value_metadata' ? item : toPlain(item, keepMetadata),
      ]),
    )
  }
  return value
}
