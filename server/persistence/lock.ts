/// <reference path="./fs-native-extensions.d.ts" />
import { type FileHandle, open } from 'node:fs/promises'
import { hostname } from 'node:os'
import { refuseUnlessRegular } from './regular-file.js'

/** What a lock file says: who took it last. For messages only: the lock itself is the kernel's. */
interface Holder {
  pid: number
  host: string
}

/**
 * One server per state file: `<file>.lock`, locked by the operating system while the server has it
 * open (`fs-native-extensions`: an open-file-description lock on Linux, `flock` on macOS,
 * `LockFileEx` on Windows). The kernel frees it when the process ends, however it ends: a kill -9,
 * a zombie nobody reaps, a container recreated under another host name. So a lock is never stale,
 * and a second open of the file, in this process or another, is refused while it is held.
 *
 * The file is never removed: a server that removed it could let two others each lock a file of
 * the same name. It names its holder (process id and host) for the refusal's message.
 */
export class StateLock {
  private constructor(private readonly handle: FileHandle) {}

  /**
   * @throws Error saying which process holds the lock, when one does
   * @example const lock = await StateLock.acquire('state.json.lock', 'state.json'); ...; await lock.release()
   */
  static async acquire(path: string, stateFile: string, shown: string = path): Promise<StateLock> {
    const { tryLock } = await kernelLocks(stateFile)
    // A FIFO opens without waiting, and locks nothing: a second server would share the state file.
    await refuseUnlessRegular(path)
    const handle = await open(path, 'a+')
    let locked = false
    try {
      locked = tryLock(handle.fd)
      if (!locked) throw new Error(inUse(stateFile, shown, parseHolder(await handle.readFile('utf8').catch(() => ''))))
    } finally {
      if (!locked) await handle.close()
    }
    const mine = JSON.stringify({ pid: process.pid, host: hostname() } satisfies Holder)
    // Only says who holds the lock: a disk too full for it must not keep the server from starting.
    await handle
      .truncate(0)
      .then(() => handle.write(mine))
      .catch(() => undefined)
    return new StateLock(handle)
  }

  /** Gives the lock up: closing the file frees it. */
  async release(): Promise<void> {
    await this.handle.truncate(0).catch(() => undefined)
    await this.handle.close()
  }
}

/**
 * The native addon, loaded by the first state file only (a server without one runs where it has no
 * build: it ships Linux glibc, macOS and Windows builds).
 */
async function kernelLocks(stateFile: string): Promise<typeof import('fs-native-extensions')> {
  try {
    return await import('fs-native-extensions')
  } catch (error) {
    throw new Error(
      `${stateFile} cannot be locked: fs-native-extensions, which takes the lock, does not load here ` +
        `(${(error as Error).message.split('\n')[0]}). Run without --state-file, or on Linux with glibc, macOS or Windows.`,
    )
  }
}

function inUse(stateFile: string, path: string, holder: Holder | undefined): string {
  const who =
    holder === undefined
      ? 'another process'
      : holder.pid === process.pid && holder.host === hostname()
        ? 'this process'
        : `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
  return (
    `${stateFile} is in use by another agent-console-mock server (${who} holds ${path}). ` +
    'Stop that server, or pass another --state-file. The system frees the lock when its process ends, ' +
    `even by kill -9, so a lock is never left behind: \`fuser -v ${path}\` (or \`lsof ${path}\`) shows what holds it.`
  )
}

function parseHolder(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Holder
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined
  } catch {
    return undefined
  }
}
