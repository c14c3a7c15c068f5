import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { contractText, mergeContracts, parseContract, type RecordedContract } from '../../verify/recording/format.js'

/**
 * One contract file for a whole Playwright run, written by every worker: each test's contract is a part
 * file under `<file>.parts/<run>/`, and after each test the parts of the run are merged into `<file>` (under
 * a lock, so two workers never write it at once). The run is the Playwright runner's process (each worker's
 * parent): parts of an earlier run are dropped, not merged.
 */
export async function writeContractPart(file: string, part: RecordedContract, name: string): Promise<void> {
  const target = resolve(file)
  const runs = `${target}.parts`
  const run = join(runs, String(process.ppid))
  await mkdir(run, { recursive: true })
  await writeFile(join(run, `${safeName(name)}.json`), contractText(part))
  await withLock(`${target}.lock`, async () => {
    await dropEarlierRuns(runs, run)
    const parts = await Promise.all((await readdir(run)).map(async (entry) => readPart(join(run, entry))))
    const merged = mergeContracts(parts.filter((item) => item !== undefined))
    await writeFile(`${target}.tmp`, contractText(merged))
    await rename(`${target}.tmp`, target)
  })
}

/** A file name for a test (its id, retry and repeat): letters, digits, `-` and `_` only. */
const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200)

async function readPart(path: string): Promise<RecordedContract | undefined> {
  try {
    return parseContract(await readFile(path, 'utf8'))
  } catch {
    return undefined // a part another worker is still writing: it merges itself when done
  }
}

async function dropEarlierRuns(runs: string, current: string): Promise<void> {
  for (const entry of await readdir(runs)) {
    const folder = join(runs, entry)
    if (folder !== current && !isRunning(Number(entry))) await rm(folder, { recursive: true, force: true })
  }
}

function isRunning(pid: number): boolean {
  try {
    return Number.isInteger(pid) && pid > 0 && (process.kill(pid, 0), true)
  } catch {
    return false
  }
}

/** A lock older than this was left by a worker that died holding it. */
const STALE_LOCK_MS = 30_000

/** Runs `work` while holding a lock folder (mkdir is atomic), waiting for another holder to finish. */
async function withLock(lock: string, work: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await mkdir(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const held = await stat(lock).catch(() => undefined)
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rmdir(lock).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  try {
    await work()
  } finally {
    await rmdir(lock)
  }
}
