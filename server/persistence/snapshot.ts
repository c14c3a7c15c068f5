import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { isRunning } from './lock.js'

/**
 * Removes what killed processes left next to the state file: `<file>.<pid>.tmp` (a snapshot
 * being written, verify/atomic-write.ts) and `<file>.lock.<pid>.tmp|.stale` (a lock being taken),
 * each only when the process of that id is gone. They would otherwise pile up, one per kill.
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
