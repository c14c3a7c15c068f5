import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'

/**
 * The change log next to a state file (`<file>.log`): one line per change, appended and flushed
 * to disk before the change is acknowledged. A line is `<checksum> <group> <json>`: the checksum
 * (16 hex digits of SHA-256 of the line's position in the log, its group and its JSON) finds a line a kill cut
 * short, or one repeated, removed or moved within the log; the group (one per flush) tells such a tail from damage
 * to lines that were acknowledged. The first line is a header naming the snapshot (the state file) the log follows,
 * by the hash of its bytes. Version 1 of the format (a server before 2026-11-27) left the position out of the
 * checksum: such a log is read as it was written, and goes on in its version until the next snapshot starts one of
 * version 2.
 */
const LOG_FORMAT = 'agent-console-mock/log'

/** The version of the log's format a new log is written in. */
const LOG_VERSION = 2

/** What the checksum of each version covers. */
const CHECKED = {
  1: (_position: number, group: string, json: string) => `${group} ${json}`,
  2: (position: number, group: string, json: string) => `${position} ${group} ${json}`,
} as const

export type LogVersion = keyof typeof CHECKED

/** 16 hex digits of SHA-256: the snapshot's name in a log, and a line's checksum. */
export const digest = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex').slice(0, 16)

/** The line at `position` (0: the header) of a log of `version`. */
export const logLine = (position: number, group: number, json: string, version: LogVersion = LOG_VERSION) =>
  `${digest(CHECKED[version](position, String(group), json))} ${group} ${json}\n`
export const logHeader = (base: string) => JSON.stringify({ format: LOG_FORMAT, version: LOG_VERSION, base })
/** Written before a compaction renames its snapshot in: a log that names it was emptied into it. */
export const logCheckpoint = (snapshot: string) => JSON.stringify({ checkpoint: snapshot })

export interface LogContents {
  /** The hash of the snapshot the log follows (undefined: no whole header). */
  base?: string
  /** The changes, in order: each a JSON text. */
  changes: string[]
  /** Snapshots compactions wrote while this log was current. */
  checkpoints: string[]
  /** Lines of the last flush a kill cut short, dropped. */
  torn: number
  /** Bytes of the whole lines, their number, and the flush the last of them belongs to: where appending goes on. */
  size: number
  lines: number
  group: number
  /** The format the log is written in: appending goes on in it. */
  version: LogVersion
}

/** A log line that was acknowledged (a later flush follows it) and is not whole. */
export class LogDamaged extends Error {
  override name = 'LogDamaged'
}

/**
 * Reads a log; undefined when there is none. A bad line (checksum, shape) and what follows it are
 * dropped when they are what a write cut short leaves of the last flush, which nobody was told of.
 * @throws LogDamaged when anything else is bad: a line of another flush, two lines cut short, a
 *   log converted to CRLF (acknowledged lines are damaged)
 */
export async function readLog(path: string): Promise<LogContents | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const lines = text.split('\n')
  const version = versionOf(lines[0] ?? '')
  // The last piece is '' when the log ends with a newline, else a line cut short.
  const entries = lines.map((raw, index) => (index === lines.length - 1 ? undefined : parseLine(raw, index, version)))
  const bad = entries.findIndex((entry, index) => entry === undefined && !(index === lines.length - 1 && !lines[index]))
  const whole = (bad === -1 ? entries.slice(0, -1) : entries.slice(0, bad)) as Array<{ group: number; json: string }>
  if (bad !== -1) refuseDamage(lines, entries, bad, whole.at(-1)?.group, text.includes('\r\n'))
  refuseGaps(whole)
  const torn = bad === -1 ? 0 : lines.length - bad - (lines.at(-1) ? 0 : 1)
  const size = whole.reduce((bytes, _, index) => bytes + Buffer.byteLength(lines[index]!) + 1, 0)
  const group = whole.at(-1)?.group ?? 0
  const contents: LogContents = { changes: [], checkpoints: [], torn, size, lines: whole.length, group, version }
  const [first, ...rest] = whole
  const head = first && (JSON.parse(first.json) as { format?: string; base?: string })
  if (!first) return contents
  if (head?.format !== LOG_FORMAT || typeof head.base !== 'string')
    throw new LogDamaged('its first line is not the header of an agent-console-mock log')
  contents.base = head.base
  for (const { json } of rest) {
    const marker = json.startsWith('{"checkpoint":') ? (JSON.parse(json) as { checkpoint: string }) : undefined
    if (marker) contents.checkpoints.push(marker.checkpoint)
    else contents.changes.push(json)
  }
  return contents
}

/**
 * Throws unless the lines from the first bad one on are what a write cut short leaves of the last
 * flush: its first lines whole, then one line cut short (zeros may follow, or fill a hole: space
 * the file system gave and the write never filled). Anything else damaged lines that were answered,
 * a line of the last flush that ends in its newline and holds no zero among them.
 */
function refuseDamage(
  lines: readonly string[],
  entries: ReadonlyArray<{ group: number } | undefined>,
  bad: number,
  lastWhole: number | undefined,
  crlf: boolean,
): void {
  const flushOf = (index: number) => entries[index]?.group ?? groupOf(lines[index]!)
  // The cut flush: the bad line's own when it can still be read, else the one after the last whole line.
  const flush = flushOf(bad) ?? (lastWhole ?? -1) + 1
  const damaged = (what: string) =>
    new LogDamaged(crlf ? `${what} (its lines end in \\r\\n: converted to CRLF?)` : what)
  if (lastWhole === undefined ? flush !== 0 : flush !== lastWhole && flush !== lastWhole + 1)
    throw damaged(`line ${bad + 1} is damaged, and belongs to flush ${flush}, not the last one`)
  let cut: number | undefined
  let changed: number | undefined
  for (let index = bad; index < lines.length; index++) {
    const group = flushOf(index)
    if (group !== undefined && group !== flush)
      throw damaged(`line ${bad + 1} is damaged, and line ${index + 1} was written after it`)
    if (entries[index] !== undefined || !lines[index]!.replaceAll('\0', '')) continue
    // A write cut short ends before its newline, or leaves zeros where it never wrote: a line ended by its newline
    // with no zero in it was written whole, and was changed since.
    if (index < lines.length - 1 && !lines[index]!.includes('\0')) changed ??= index
    if (cut !== undefined) throw damaged(`lines ${cut + 1} and ${index + 1} are damaged: a write cut short leaves one`)
    cut = index
  }
  if (changed !== undefined)
    throw damaged(
      `line ${changed + 1} is whole, but does not match its checksum: it was changed, or moved within the log, after it was written`,
    )
}

/**
 * Throws unless the flushes follow one another: the header is flush 0 and each flush is the one before it plus one
 * (a failed flush is cut back and its number used again), so a whole line removed, or lines moved, shows as a gap
 * or a step back, where the checksums of the lines left all hold.
 */
function refuseGaps(whole: ReadonlyArray<{ group: number }>): void {
  whole.forEach(({ group }, index) => {
    const before = index === 0 ? 0 : whole[index - 1]!.group
    if (group !== before && group !== before + 1)
      throw new LogDamaged(
        `line ${index + 1} belongs to flush ${group}, after flush ${before}: acknowledged lines were removed or moved`,
      )
  })
}

const groupOf = (raw: string): number | undefined => {
  const group = /^[0-9a-f]{16} (\d+) /.exec(raw)?.[1]
  return group === undefined ? undefined : Number(group)
}

/** The line at `position` of a log of `version`, if its checksum holds there. */
function parseLine(raw: string, position: number, version: LogVersion): { group: number; json: string } | undefined {
  const match = /^([0-9a-f]{16}) (\d+) (.*)$/s.exec(raw)
  if (!match || digest(CHECKED[version](position, match[2]!, match[3]!)) !== match[1]) return undefined
  return { group: Number(match[2]), json: match[3]! }
}

/**
 * The version a log is written in, told by its header's checksum: a header whose checksum holds only for version 1
 * is version 1's. A header that holds for neither (cut short, damaged) leaves the version the current one, and the
 * header's own check refuses or drops it.
 */
function versionOf(header: string): LogVersion {
  return parseLine(header, 0, LOG_VERSION) === undefined && parseLine(header, 0, 1) !== undefined ? 1 : LOG_VERSION
}
