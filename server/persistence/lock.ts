import { readFileSync, realpathSync } from 'node:fs'
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

/** What a lock file holds: who took it. `start` tells a live holder from a later process given its id. */
interface Holder {
  pid: number
  start: string | null
  host: string
}

/** Lock files this process holds: a second server in the same process is refused as one in another would be. */
const heldHere = new Set<string>()
/** One name per lock file, however its path is spelled (relative, through a link to its folder). */
function keyOf(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path))
  } catch {
    return path // the folder is gone: no other name can reach it
  }
}

/**
 * One server per state file: `<file>.lock` names the process that holds it. Taking it is a
 * `link` of a whole file (never a half-written lock); a lock whose process is gone (a kill -9)
 * is taken over; a live holder is named in the refusal.
 */
export class StateLock {
  private constructor(
    readonly path: string,
    private readonly mine: string,
  ) {}

  /**
   * @throws Error saying which process holds the lock, when one does
   * @example const lock = await StateLock.acquire('state.json.lock'); ...; await lock.release()
   */
  static async acquire(path: string, stateFile: string, shown: string = path): Promise<StateLock> {
    const mine = JSON.stringify({ pid: process.pid, start: startOf(process.pid), host: hostname() } satisfies Holder)
    const temporary = `${path}.${process.pid}.tmp`
    try {
      await writeFile(temporary, mine)
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await link(temporary, path)
          heldHere.add(keyOf(path))
          return new StateLock(path, mine)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        }
        const text = await readFile(path, 'utf8').catch(() => undefined)
        if (text === undefined) continue // released meanwhile
        const holder = parseHolder(text)
        if (!holder)
          throw new Error(`${shown} is not a lock of agent-console-mock: remove it if no server uses ${stateFile}.`)
        if (isAlive(holder, path)) throw new Error(inUse(stateFile, shown, holder))
        await takeOver(path, text)
      }
      throw new Error(`${shown} changed hands again and again: another server is starting on ${stateFile}.`)
    } finally {
      await rm(temporary, { force: true })
    }
  }

  /** Gives the lock up (only if it is still this process's). */
  async release(): Promise<void> {
    heldHere.delete(keyOf(this.path))
    const text = await readFile(this.path, 'utf8').catch(() => undefined)
    if (text === this.mine) await rm(this.path, { force: true })
  }
}

function inUse(stateFile: string, path: string, holder: Holder): string {
  const who = holder.pid === process.pid ? 'this process' : `process ${holder.pid}`
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`
  return (
    `${stateFile} is in use by another agent-console-mock server (${who}${where} holds ${path}). ` +
    'Stop that server first, or pass another --state-file.'
  )
}

/**
 * Moves a dead holder's lock aside, then makes sure it was that one: two starters may both find
 * it dead, and the second must not throw away the lock the first just took.
 */
async function takeOver(path: string, stale: string): Promise<void> {
  const aside = `${path}.${process.pid}.stale`
  try {
    await rename(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if ((await readFile(aside, 'utf8')) !== stale) await link(aside, path).catch(() => undefined)
  await rm(aside, { force: true })
}

function parseHolder(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Holder
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined
  } catch {
    return undefined
  }
}

/** Whether the lock's process still runs: another host's cannot be seen, so it counts as running. */
function isAlive(holder: Holder, path: string): boolean {
  if (holder.host !== hostname()) return true
  if (holder.pid === process.pid) return heldHere.has(keyOf(path))
  if (!isRunning(holder.pid)) return false
  // The id may have been given to a later process (a container restarted): its start time differs.
  const start = startOf(holder.pid)
  return holder.start === null || start === null || start === holder.start
}

/** Whether a process of this id exists (signal 0 only checks). */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** When the process started (Linux: clock ticks since boot, from /proc); null where that cannot be read. */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}
