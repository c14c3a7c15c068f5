import { httpError } from '../../fastapi/http/responses.js'
import { JsonBudget } from '../../fastapi/wire/kept-json.js'
import type { DocumentedContents, DocumentedRecord } from '../../model/documented.js'
import { COLLECTION_NAMES, type CollectionName, type World, type WorldContents } from '../../model/world.js'

/**
 * What a world costs on the heap, estimated from its records (the figures behind the estimates,
 * taken with indexes built, are in docs/reliability.md). Estimates, not readings of the heap: the
 * heap moves with garbage, and an estimate is the same in every run, so a refusal can be tested
 * and explained.
 */
const PERSONA_BYTES = 700
const RECORD_BYTES = 4 * 1024
const WORLD_BYTES = 64 * 1024
/** What a fork pays per record of a collection it made its own: a reference, and a slot of its index. */
const OWN_RECORD_BYTES = 48
/** Records other than personas in a seeded world (teams, dimensions, values, policies, rules). */
const SEEDED_OTHER_RECORDS = 340
/** Teams of a seeded world that have personas. */
const SEEDED_TEAMS_WITH_PERSONAS = 2

/** The heap a seeded world of this size costs (a new base). */
export const seededWorldBytes = (personasPerTeam: number): number =>
  WORLD_BYTES + SEEDED_TEAMS_WITH_PERSONAS * personasPerTeam * PERSONA_BYTES + SEEDED_OTHER_RECORDS * RECORD_BYTES

/** The heap a world of its own (not a fork) with these records costs. */
export const worldBytes = (contents: Pick<WorldContents, CollectionName>): number =>
  COLLECTION_NAMES.reduce((sum, name) => sum + collectionBytes(name, contents[name]), WORLD_BYTES)

/** The shortest JSON a bulk add's item can be (`{"value":""}`): a body holds at most one item per this many bytes. */
const SMALLEST_ITEM_BYTES = 12

/**
 * What a write may add, held until it is answered: its body, and the records it may create (up to `maxRecords`, and
 * no more than its body can describe). Its body alone would hold a quarter of it: a 1 MiB bulk add of 1,000 values
 * stores ~4 MiB, and 150 sent at once were admitted together ~4 times past the budget.
 */
export const writeBytes = (bodyLength: number, maxRecords: number): number =>
  bodyLength + Math.min(maxRecords, Math.ceil(bodyLength / SMALLEST_ITEM_BYTES)) * RECORD_BYTES

/** The heap `count` new records of a collection cost, before their fields are known (see {@link freeFormBytes}). */
export const recordsBytes = (collection: CollectionName, count: number): number =>
  count * (collection === 'personas' ? PERSONA_BYTES : RECORD_BYTES)

/** The heap a collection's records cost: the measured size a record, and what free-form fields hold beyond it. */
export const collectionBytes = (collection: CollectionName, records: readonly object[]): number =>
  records.reduce((sum: number, record) => sum + freeFormBytes(record), recordsBytes(collection, records.length))

/**
 * Free-form JSON fields: a value's `value_metadata`, a persona's `access_permissions`. The records measured held
 * small ones; a client's can hold a megabyte of empty arrays, ~25 MB once parsed, which a flat estimate missed (the
 * heap ran out while the budget counted a few MB).
 */
const FREE_FORM_FIELDS = ['value_metadata', 'access_permissions'] as const
/** What the measured records' free-form fields held, which their flat estimate covers. */
const FREE_FORM_ALLOWANCE = 1024

/**
 * What a record's free-form fields hold beyond the allowance. A small one (every seeded record's) is seen to be
 * small after a few steps and not remembered, so that a world of 200,000 personas keeps no measure of each;
 * a large one is measured whole, once a record.
 */
function freeFormBytes(record: object): number {
  const fields = record as Partial<Record<(typeof FREE_FORM_FIELDS)[number], unknown>>
  if (FREE_FORM_FIELDS.every((field) => heldBytes(fields[field], FREE_FORM_ALLOWANCE) <= FREE_FORM_ALLOWANCE)) return 0
  let bytes = largeFreeForm.get(record)
  if (bytes === undefined) {
    const held = FREE_FORM_FIELDS.reduce((sum, field) => sum + heldBytes(fields[field]), 0)
    largeFreeForm.set(record, (bytes = Math.max(0, held - FREE_FORM_ALLOWANCE)))
  }
  return bytes
}

/** Records are replaced, never changed in place, when written: a measure holds for the record's life. */
const largeFreeForm = new WeakMap<object, number>()

/**
 * What a JSON-like value holds on the heap, as Python's view of it is kept (`PyDict`, a `Map`) or as plain JSON:
 * 80 bytes a value, two a character of its strings and keys. Past `limit`, the count stops (it is then more).
 */
function heldBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let bytes = 0
  walkJson(value, (node, key) => {
    bytes += VALUE_BYTES + 2 * key.length + (typeof node === 'string' ? 2 * node.length : 0)
    return bytes <= limit
  })
  return bytes
}

/**
 * Visits every value a JSON-like value holds, itself first, with the key it is held under (`''` for itself and
 * array items), until `visit` answers false. Without recursion: any depth, and item by item (spreading an array of
 * 300,000 into one call would pass the engine's limit on arguments).
 */
export function walkJson(value: unknown, visit: (node: unknown, key: string) => boolean): void {
  const pending: Array<[unknown, string]> = [[value, '']]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, key] = next
    if (!visit(node, key)) return
    if (typeof node !== 'object' || node === null) continue
    if (node instanceof Map) for (const [name, item] of node) pending.push([item, String(name)])
    else if (Array.isArray(node)) for (const item of node) pending.push([item, ''])
    else for (const [name, item] of Object.entries(node)) pending.push([item, name])
  }
}

/** What one value of a parsed JSON body holds (a megabyte of empty objects holds ~25 MB once parsed). */
const VALUE_BYTES = 80

/** The heap worlds hold together: each base once, and what each fork made its own. */
export function bytesInUse(worlds: Iterable<World>): number {
  const counted = new Set<World>()
  let bytes = 0
  for (let world of worlds) {
    for (; world.forkedFrom && !counted.has(world); world = world.forkedFrom) {
      counted.add(world)
      bytes += measuredOnce(world, () => FORK_BYTES + ownBytes(world, world.forkedFrom!))
    }
    if (counted.has(world)) continue
    counted.add(world)
    bytes += measuredOnce(world, () => worldBytes(world.contents()) + documentedBytes(world.documentedContents))
  }
  return bytes
}

/**
 * What a world costs, measured again only once it changed: snapshots and kept bases never change, so a budget
 * that counts thousands of them after every admission reads a number for each, not its records. (A fork's cost
 * reads its base too, which never changes once forked from.)
 */
function measuredOnce(world: World, measure: () => number): number {
  const version = world.version
  const known = worldMeasures.get(world)
  if (known?.version === version) return known.bytes
  const bytes = measure()
  worldMeasures.set(world, { version, bytes })
  return bytes
}

const worldMeasures = new WeakMap<World, { version: string; bytes: number }>()

/**
 * What records of a served document's collections cost, by the record and by the collection's array. Both are
 * replaced on every write, never changed (model/documented.ts), so each is measured once, and forks and
 * snapshots that share an array share its measure.
 */
const measured = new WeakMap<object, number>()

/**
 * What a served record costs: another record's estimate, and the characters of its JSON. Its body is the
 * client's: unlike the mock's own records, one can hold a string of any length.
 */
function documentedRecordBytes(record: DocumentedRecord): number {
  let bytes = measured.get(record)
  if (bytes === undefined) measured.set(record, (bytes = RECORD_BYTES + JSON.stringify(record).length))
  return bytes
}

function documentedCollectionBytes(records: readonly DocumentedRecord[]): number {
  let bytes = measured.get(records)
  if (bytes === undefined)
    measured.set(records, (bytes = records.reduce((sum, record) => sum + documentedRecordBytes(record), 0)))
  return bytes
}

/** What a world's (or a state file's) records of served collections cost. */
export const documentedBytes = (contents: DocumentedContents): number =>
  Object.values(contents).reduce((sum, records) => sum + documentedCollectionBytes(records), 0)

/**
 * What a fork's own served collections cost: as {@link ownBytes} counts the world's own, a reference for each
 * record its base has too, and what the collection grew by beyond its base's.
 */
function ownDocumentedBytes(fork: World, base: World): number {
  const shared = base.documentedContents
  return Object.entries(fork.documentedContents).reduce((sum, [path, records]) => {
    const based = shared[path] ?? []
    if (records === based) return sum
    const grown = documentedCollectionBytes(records) - documentedCollectionBytes(based)
    return sum + Math.min(records.length, based.length) * OWN_RECORD_BYTES + Math.max(0, grown)
  }, 0)
}

/** What a new fork (a new session's world) costs before it writes. */
export const FORK_BYTES = WORLD_BYTES / 16

/**
 * What a fork's own collections cost: a reference for each record its base has too, and a whole
 * record for each one more (records it stored itself: a world that grows pays for its growth).
 */
function ownBytes(fork: World, base: World): number {
  const own = fork.contents()
  const shared = base.contents()
  return fork.ownCollections.reduce(
    (sum, name) => {
      const kept = Math.min(own[name].length, shared[name].length)
      const grown = collectionBytes(name, own[name]) - collectionBytes(name, shared[name])
      return sum + kept * OWN_RECORD_BYTES + Math.max(0, grown)
    },
    ownDocumentedBytes(fork, base),
  )
}

/** What keeping a world's snapshot adds: a fork's own records (references to them), or a whole world. */
export const snapshotBytes = (world: World): number =>
  world.forkedFrom ? FORK_BYTES + ownBytes(world, world.forkedFrom) : bytesInUse([world])

/** What a budget watches: the worlds held, and how to let one go. */
export interface BudgetHolder {
  /** Every world held now (the default one, the sessions', the snapshots', kept bases). */
  worlds(): Iterable<World>
  /** What else is held besides the worlds: journals, recorded contracts, overrides. Read after every request: O(1). */
  otherBytes(): number
  /** Lets the least recently used world go; false when none can go. */
  evictOne(): boolean
}

const MB = 1024 * 1024

/**
 * The JSON kept of answered lists, for every world of a budget's sessions together: a cache beside the budget (what
 * it holds comes back only once a collection finds its lists gone, so it cannot make room on demand), bounded to a
 * quarter of the budget and to what one instance keeps alone. Past it, records are written again on every request.
 */
export const keptJsonBeside = (budget: MemoryBudget): JsonBudget =>
  new JsonBudget(Math.min(JsonBudget.DEFAULT_BYTES, Math.floor(budget.limitBytes / KEPT_JSON_SHARE)))

const KEPT_JSON_SHARE = 4

/**
 * A limit on the heap the worlds of a mock may hold. A change that would pass it (a new
 * session, a reset to another size, an import) first lets the least recently used worlds go,
 * then is refused with 503 and a sentence that says what to do.
 */
export class MemoryBudget {
  #holder: BudgetHolder | undefined
  /** What the journals and recorders held when {@link reclaim} last looked. */
  #otherChecked = 0
  /** What changes under way were admitted for and do not hold yet (see {@link reserve}). */
  #reserved = 0

  constructor(readonly limitBytes: number) {}

  /** The worlds this budget holds the line for (the server's sessions). */
  watch(holder: BudgetHolder): void {
    this.#holder = holder
  }

  get bytesInUse(): number {
    return this.#holder ? bytesInUse(this.#holder.worlds()) + this.#holder.otherBytes() + this.#reserved : 0
  }

  /**
   * Admits `bytes` (as {@link admit}) and counts them as in use until the change is made. What a change adds is
   * counted once it is made (a world built and swapped in), so changes under way at once would each see the same
   * room and together pass the budget many times over (eight resets to 100,000 personas sent at once ran a heap
   * out of memory).
   * @returns what lets the bytes go once the change is made (or failed)
   * @throws Response 503 when there is no room even then
   */
  hold(bytes: number, what: string): () => void {
    this.admit(bytes, what)
    this.#reserved += bytes
    let held = true
    return () => {
      if (held) this.#reserved -= bytes
      held = false
    }
  }

  /**
   * Lets least recently used worlds go while more than the budget is held: for what grows with
   * every request unasked (journals, recorded contracts). Looked at once they grew by a mebibyte.
   */
  reclaim(): void {
    const other = this.#holder?.otherBytes() ?? 0
    if (Math.abs(other - this.#otherChecked) < MB) return
    this.#otherChecked = other
    while (this.#holder && this.bytesInUse > this.limitBytes && this.#holder.evictOne());
  }

  /**
   * Makes room for `bytes` more, letting least recently used worlds go if need be.
   * @throws Response 503 when there is no room even then
   */
  admit(bytes: number, what: string): void {
    if (!this.#holder) return
    while (this.bytesInUse + bytes > this.limitBytes) {
      // What changes under way hold cannot be let go: when they leave no room, sessions let go would be lost for
      // nothing (an import refused after the sessions before it were dropped to make room).
      if (this.#reserved + bytes <= this.limitBytes && this.#holder.evictOne()) continue
      throw httpError(
        503,
        `Not enough memory for ${what} (about ${Math.ceil(bytes / MB)} MB; ${Math.ceil(this.bytesInUse / MB)} MB ` +
          `of ${Math.floor(this.limitBytes / MB)} MB in use): use fewer sessions or a smaller world, ` +
          'delete snapshots or records you no longer need, or give the mock a larger budget (--max-memory).',
      )
    }
  }
}
