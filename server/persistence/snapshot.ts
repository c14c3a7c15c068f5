import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Removes what killed processes left next to the state file: `<file>.<pid>.tmp` (a snapshot
 * being written, verify/atomic-write.ts) and `<file>.lock.<pid>.tmp|.stale` (a lock being taken,
 * by earlier versions). Called with the lock held: no other server is writing any of them. They
 * would otherwise pile up, one per kill.
 */
export async function removeStaleTemporaries(path: string): Promise<void> {
  const names = await readdir(dirname(path)).catch(() => [] as string[])
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.(?:lock\\.)?\\d+\\.(?:tmp|stale)$`)
  for (const name of names) if (pattern.test(name)) await rm(join(dirname(path), name), { force: true })
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
