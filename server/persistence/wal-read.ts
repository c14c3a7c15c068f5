import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'

/**
 * The change log next to a state file (`<file>.log`): one line per change, appended and flushed
 * to disk before the change is acknowledged. A line is `<checksum> <group> <json>`: the checksum
 * (16 hex digits of SHA-256 of the rest) finds a line a kill cut short, the group (one per flush)
 * tells such a tail from damage to lines that were acknowledged. The first line is a header naming
 * the snapshot (the state file) the log follows, by the hash of its bytes.
 */
const LOG_FORMAT = 'agent-console-mock/log'

/** 16 hex digits of SHA-256: the snapshot's name in a log, and a line's checksum. */
export const digest = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex').slice(0, 16)

export const logLine = (group: number, json: string) => `${digest(`${group} ${json}`)} ${group} ${json}\n`
export const logHeader = (base: string) => JSON.stringify({ format: LOG_FORMAT, version: 1, base })
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
  /** Bytes of the whole lines, and the flush the last of them belongs to: where appending goes on. */
  size: number
  group: number
}

/** A log line that was acknowledged (a later flush follows it) and is not whole. */
export class LogDamaged extends Error {
  override name = 'LogDamaged'
}

/**
 * Reads a log; undefined when there is none. A bad line (checksum, shape) and what follows it are
 * dropped when they all belong to one flush: the last one, which a kill cut short and nobody was told of.
 * @throws LogDamaged when a line of a later flush follows a bad line (an acknowledged line is damaged)
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
  // The last piece is '' when the log ends with a newline, else a line cut short.
  const entries = lines.map((raw, index) => (index === lines.length - 1 ? undefined : parseLine(raw)))
  const bad = entries.findIndex((entry, index) => entry === undefined && !(index === lines.length - 1 && !lines[index]))
  const whole = (bad === -1 ? entries.slice(0, -1) : entries.slice(0, bad)) as Array<{ group: number; json: string }>
  if (bad !== -1) {
    // The cut flush: the bad line's own group when it can still be read, else the one after the last whole line.
    const flush = Number(/^[0-9a-f]{16} (\d+) /.exec(lines[bad]!)?.[1] ?? (whole.at(-1)?.group ?? -1) + 1)
    const later = entries.findIndex((entry, index) => index > bad && entry !== undefined && entry.group !== flush)
    if (later !== -1) throw new LogDamaged(`line ${bad + 1} is damaged, and line ${later + 1} was written after it`)
  }
  const torn = bad === -1 ? 0 : lines.length - bad - (lines.at(-1) ? 0 : 1)
  const size = whole.reduce((bytes, _, index) => bytes + Buffer.byteLength(lines[index]!) + 1, 0)
  const contents: LogContents = { changes: [], checkpoints: [], torn, size, group: whole.at(-1)?.group ?? 0 }
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

function parseLine(raw: string): { group: number; json: string } | undefined {
  const match = /^([0-9a-f]{16}) (\d+) (.*)$/s.exec(raw)
  if (!match || digest(`${match[2]} ${match[3]}`) !== match[1]) return undefined
  return { group: Number(match[2]), json: match[3]! }
}
