import { constants } from 'node:fs'
import { access, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { MockInstance } from '../../core/instance/instance.js'
import { StateError } from '../../model/state/index.js'
import { replay, type ReplayedIds } from './changes.js'
import { refuseUnlessRegular } from './regular-file.js'
import { digest, type LogContents, LogDamaged, readLog } from './wal-read.js'

/** What a start found: the snapshot it loaded (none: the seeded world) and the log. */
interface Loaded {
  snapshot?: { hash: string; bytes: number }
  /** The log, when it follows this snapshot (its changes are in the world now). */
  log?: LogContents
  /** Changes replayed from the log, and lines of a flush a kill cut short that were dropped. */
  replayed: number
  torn: number
}

const UNTOUCHED = 'It was left untouched'

/**
 * Refuses a state file the server could not keep every change in: its folder, the file or its log
 * not writable (a read-only file, folder or file system; a missing folder).
 * @throws Error naming the file and saying what to do
 */
export async function checkWritable(path: string, logPath: string): Promise<void> {
  for (const [target, kind] of [
    [dirname(path), 'folder'],
    [path, 'file'],
    [logPath, 'file'],
  ] as const) {
    const exists = kind === 'folder' || (await stat(target).catch(() => undefined)) !== undefined
    if (!exists) continue
    await access(target, constants.W_OK).catch((cause: NodeJS.ErrnoException) => {
      throw new Error(`${path} cannot be written: ${cause.message}. ${writableAdvice(cause.code)}`)
    })
  }
}

/** What to do about a state file the server cannot write at start. */
export function writableAdvice(code: string | undefined): string {
  const fix = code === 'ENOSPC' || code === 'EDQUOT' ? 'free space on its disk' : 'make it and its folder writable'
  return (
    'Every change is kept in it and in <file>.log, so the server does not start: ' +
    `${fix}, or pass another --state-file.`
  )
}

/**
 * Loads the snapshot into the instance and replays the log that follows it; a flush a kill cut
 * short (never acknowledged) is dropped. Refuses, leaving both files as they are, a snapshot or a
 * log that is damaged, and a log that follows another snapshot.
 */
export async function loadState(path: string, logPath: string, instance: MockInstance): Promise<Loaded> {
  const loaded = await loadAndReplay(path, logPath, instance)
  // What was created and deleted before the stop is not in the state: drawn from the same stream again, the ids
  // of deleted records would come back. A stream of this start's own cannot meet them.
  instance.world.drawIdsFrom(crypto.getRandomValues(new Uint32Array(1))[0]!)
  return loaded
}

async function loadAndReplay(path: string, logPath: string, instance: MockInstance): Promise<Loaded> {
  for (const file of [path, logPath]) await refuseUnlessRegular(file)
  let bytes: Buffer | undefined
  try {
    bytes = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${path} cannot be read as a state file: ${(error as Error).message}`)
  }
  let log: LogContents | undefined
  try {
    log = await readLog(logPath)
  } catch (error) {
    if (!(error instanceof LogDamaged)) throw new Error(`${logPath} cannot be read: ${(error as Error).message}`)
    throw new Error(`${logPath} is damaged: ${error.message}. ${UNTOUCHED}, with ${path}: repair or remove it.`)
  }
  const torn = log?.torn ?? 0
  if (!bytes) {
    // A log is started only once its state file is written: one that names a state (its header) follows a state
    // file that was there, and starting from the seeded world would drop that state without a word.
    if (log?.changes.length || log?.base !== undefined)
      throw new Error(
        `${logPath} ${log.changes.length ? `holds ${log.changes.length} changes, but` : 'follows'} ${path}, ` +
          `${log.changes.length ? 'the state they follow, ' : 'which '}is missing. ` +
          `${UNTOUCHED}: restore ${path}, or remove ${logPath} to start from the seeded world.`,
      )
    return { replayed: 0, torn }
  }
  try {
    await instance.importState(bytes.toString('utf8'))
  } catch (error) {
    if (!(error instanceof StateError)) throw error
    throw new Error(
      `${path} is not a usable state file: ${error.message}. ` +
        `${UNTOUCHED}: fix it, remove it and ${logPath} to start from the seeded world, or pass another --state-file.`,
    )
  }
  const snapshot = { hash: digest(bytes), bytes: bytes.byteLength }
  if (log?.base === undefined || log.base !== snapshot.hash) {
    // No whole header (a log emptied by a snapshot's hand-over), or one naming this snapshot as one it was emptied
    // into (a compaction cut short after its rename): the snapshot holds all. Else the state file was changed.
    if (log?.base === undefined || log.checkpoints.includes(snapshot.hash)) return { snapshot, replayed: 0, torn }
    throw new Error(
      `${logPath} ${log.changes.length ? `holds ${log.changes.length} changes made` : 'was started'} after ` +
        `another version of ${path}, not this one: ${path} was changed since the server wrote it. ` +
        'Both were left untouched: put back the state file it follows, ' +
        `or remove ${logPath} to start from ${path} as it is.`,
    )
  }
  const ids: ReplayedIds = new Map()
  for (const [index, json] of log.changes.entries()) {
    await replay(instance, json, ids).catch((error: Error) => {
      throw new Error(
        `${logPath} is damaged: change ${index + 1}: ${error.message}. ${UNTOUCHED}: repair or remove it.`,
      )
    })
  }
  return { snapshot, log, replayed: log.changes.length, torn }
}
