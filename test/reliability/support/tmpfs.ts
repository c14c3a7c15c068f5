import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A small tmpfs of our own: a file system that really fails (full, or read-only), for root too
 * (root ignores file permissions, not a full disk or a read-only mount). Mounting needs root and
 * CAP_SYS_ADMIN; elsewhere `tmpfsAvailable` is false and the tests that need one are skipped.
 */
export const tmpfsAvailable = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false
  const probe = mkdtempSync(join(tmpdir(), 'acm-tmpfs-probe-'))
  try {
    execFileSync('/bin/mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('/bin/umount', [probe])
    return true
  } catch {
    return false
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
})()

export interface Tmpfs {
  path: string
  /** Fills every free byte with a file but `leave` (rounded to pages); `release` removes it. */
  fill(leave?: number): void
  release(): void
  /** Remounts read-only (`rw: true`: writable again). */
  remount(rw: boolean): void
  /** Unmounts and removes the mount point; safe to call twice. */
  dispose(): void
}

export function mountTmpfs(size: string): Tmpfs {
  const path = mkdtempSync(join(tmpdir(), 'acm-tmpfs-'))
  execFileSync('/bin/mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path])
  const filler = join(path, 'filler')
  let mounted = true
  return {
    path,
    fill(leave = 0) {
      // Page by page: a write past the end fails with ENOSPC and keeps what fitted.
      const page = Buffer.alloc(4096, 1)
      for (let n = 0; n < 1_000_000; n++) {
        try {
          writeFileSync(filler, page, { flag: 'a' })
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
          if (leave > 0) truncateSync(filler, Math.max(0, statSync(filler).size - leave))
          return
        }
      }
      throw new Error('the tmpfs never filled up')
    },
    release: () => rmSync(filler, { force: true }),
    remount: (rw) => void execFileSync('/bin/mount', ['-o', `remount,${rw ? 'rw' : 'ro'}`, path]),
    dispose() {
      if (mounted) execFileSync('/bin/umount', ['-l', path])
      mounted = false
      rmSync(path, { recursive: true, force: true })
    },
  }
}
