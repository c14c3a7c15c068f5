import { open, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { isRunning } from './lock.js'

/**
 * The snapshot (the state file itself) is replaced whole: written to `<file>.<pid>.tmp`, flushed
 * to disk, renamed over the file, and the rename flushed with its folder. A kill at any moment
 * leaves the old file or the new one, never a torn one.
 */
const temporaryOf = (path: string): string => `${path}.${process.pid}.tmp`

/** Writes the snapshot to its temporary file and flushes it to disk; removes it on failure. */
export async function prepareSnapshot(path: string, bytes: Uint8Array): Promise<string> {
  const temporary = temporaryOf(path)
  try {
    const file = await open(temporary, 'w')
    try {
      await file.writeFile(bytes)
      await file.sync()
    } finally {
      await file.close()
    }
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return temporary
}

/** Renames a prepared snapshot over the state file and flushes the folder, so the rename survives a crash. */
export async function installSnapshot(temporary: string, path: string): Promise<void> {
  try {
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncFolder(path)
}

/** Flushes the folder of `path` (its entries: a rename, a new file). */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(dirname(path), 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}

/**
 * Removes what killed processes left next to the state file: `<file>.<pid>.tmp` (a snapshot
 * being written) and `<file>.lock.<pid>.tmp|.stale` (a lock being taken), each only when the
 * process of that id is gone. They would otherwise pile up, one per kill.
 */
export async function removeStaleTemporaries(path: string): Promise<void> {
  const names = await readdir(dirname(path)).catch(() => [] as string[])
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.(?:lock\\.)?(\\d+)\\.(?:tmp|stale)$`)
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN)
    // This process's id in a name found at start is an earlier process's: the id was reused.
    if (pid > 0 && (pid === process.pid || !isRunning(pid))) await rm(join(dirname(path), name), { force: true })
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
