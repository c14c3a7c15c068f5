import { z } from 'zod'
import type { DocumentedRecord } from '../../model/documented.js'
import type { World } from '../../model/world.js'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'

/**
 * A served document's collection in the log. Its first write logs it whole (its seeded records were generated from
 * the document, which a restart may not be given); each write after logs what it did to the collection before it: a
 * record added, one replaced or one removed, so that a write costs what it changed, not the whole collection (80
 * writes of 1 MB records had written 2.4 GB to the log, one whole collection each).
 */
const Whole = z.object({ documented: z.string(), records: z.array(z.record(z.string(), z.unknown())) })
const Added = z.object({ documented: z.string(), added: z.record(z.string(), z.unknown()) })
const Replaced = z.object({
  documented: z.string(),
  replaced: z.number().int().nonnegative(),
  record: z.record(z.string(), z.unknown()),
})
const Removed = z.object({ documented: z.string(), removed: z.number().int().nonnegative() })
const DocumentedChange = z.union([Whole.strict(), Added.strict(), Replaced.strict(), Removed.strict()])
type DocumentedChange = z.infer<typeof DocumentedChange>

/** The log line of a write that turned `before` into `after` (`before` undefined: the collection's first write). */
export function documentedChangeJson(
  collection: string,
  before: readonly DocumentedRecord[] | undefined,
  after: readonly DocumentedRecord[],
): string {
  return encodePythonJson(changeOf(collection, before, after))
}

function changeOf(
  documented: string,
  before: readonly DocumentedRecord[] | undefined,
  after: readonly DocumentedRecord[],
): DocumentedChange {
  if (before) {
    const at = firstDifference(before, after)
    if (after.length === before.length + 1 && at === before.length) return { documented, added: after[at]! }
    if (after.length === before.length && at < after.length && sameFrom(before, after, at + 1, 0))
      return { documented, replaced: at, record: after[at]! }
    if (after.length === before.length - 1 && sameFrom(before, after, at + 1, -1)) return { documented, removed: at }
  }
  return { documented, records: [...after] }
}

/** The first index where the two lists hold different records (the shorter one's length if none). */
function firstDifference(before: readonly DocumentedRecord[], after: readonly DocumentedRecord[]): number {
  const length = Math.min(before.length, after.length)
  for (let index = 0; index < length; index++) if (before[index] !== after[index]) return index
  return length
}

/** Whether `before` from `from` on holds the records of `after` from `from + shift` on. */
function sameFrom(
  before: readonly DocumentedRecord[],
  after: readonly DocumentedRecord[],
  from: number,
  shift: number,
): boolean {
  for (let index = from; index < before.length; index++) if (before[index] !== after[index + shift]) return false
  return true
}

/**
 * Replays a served collection's line, if `line` is one: true when it was.
 * @throws Error when it changes a collection the world does not hold, or a record it does not have
 */
export function replayDocumented(world: World, line: unknown): boolean {
  const parsed = DocumentedChange.safeParse(line)
  if (!parsed.success) return false
  const change = parsed.data
  if ('records' in change) {
    world.setDocumented(change.documented, change.records)
    return true
  }
  const records = world.documented(change.documented)
  if (!records) throw new Error(`it changes ${change.documented}, which no line before it wrote`)
  const next = [...records]
  if ('added' in change) next.push(change.added)
  else {
    const at = 'replaced' in change ? change.replaced : change.removed
    if (at >= records.length)
      throw new Error(`it changes record ${at} of ${change.documented}, which holds ${records.length}`)
    if ('replaced' in change) next[at] = change.record
    else next.splice(at, 1)
  }
  world.setDocumented(change.documented, next)
  return true
}
