import { constants } from 'node:fs'
import { access, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { MockInstance } from '../../mock/instance.js'
import { StateError } from '../../mock/state.js'

/**
 * Keeps a mock instance's world in a state file: loaded at start, written after every
 * change. A write goes to a temporary file that is flushed to disk and then renamed over
 * the state file, so a kill at any moment leaves the previous or the new state, never a
 * torn one. Writes never overlap; changes made during a write are written right after it.
 */
export class StatePersistence {
  #saved = ''
  #writing: Promise<void> | undefined
  #again = false

  constructor(
    readonly path: string,
    private readonly instance: MockInstance,
    private readonly onError: (error: unknown) => void = (error) => console.error(error),
  ) {}

  /**
   * Loads the state file into the instance when there is one.
   * @returns whether a state was loaded (false: no file yet, the seeded world stays).
   * @throws Error naming the file and what is wrong; the file is left as it is.
   */
  async load(): Promise<boolean> {
    await this.#removeStaleTemporaries()
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`${this.path} cannot be read as a state file: ${(error as Error).message}`)
      // No state yet: the first change creates the file, so its folder must be there to take it.
      await access(dirname(this.path), constants.W_OK).catch((cause: Error) => {
        throw new Error(`${this.path} cannot be written: ${cause.message}`)
      })
      // The seeded world is not a change: reads alone never write the file.
      this.#saved = this.instance.stateVersion
      return false
    }
    try {
      await this.instance.importState(text)
    } catch (error) {
      if (!(error instanceof StateError)) throw error
      throw new Error(
        `${this.path} is not a usable state file: ${error.message}. It was left untouched: fix it, remove it, or pass another --state-file.`,
      )
    }
    this.#saved = this.instance.stateVersion
    return true
  }

  /** Writes the state if it changed since the last write. */
  save(): Promise<void> {
    if (this.instance.stateVersion === this.#saved) return this.#writing ?? Promise.resolve()
    if (this.#writing) {
      this.#again = true
      return this.#writing
    }
    this.#writing = this.#write().finally(() => {
      this.#writing = undefined
      if (this.#again) {
        this.#again = false
        void this.save()
      }
    })
    return this.#writing
  }

  /** Waits for the writes under way (and the one they asked for). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing
    await this.save()
  }

  /**
   * Removes the temporary files of writes a killed process never finished (`<file>.<pid>.tmp`
   * of a process that is gone), which would otherwise pile up, one per kill.
   */
  async #removeStaleTemporaries(): Promise<void> {
    const prefix = `${basename(this.path)}.`
    const names = await readdir(dirname(this.path)).catch(() => [] as string[])
    for (const name of names) {
      const pid =
        name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length, -'.tmp'.length)) : NaN
      if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) await rm(join(dirname(this.path), name), { force: true })
    }
  }

  async #write(): Promise<void> {
    const version = this.instance.stateVersion
    const temporary = `${this.path}.${process.pid}.tmp`
    try {
      const file = await open(temporary, 'w')
      try {
        await file.writeFile(this.instance.exportState())
        await file.sync()
      } finally {
        await file.close()
      }
      await rename(temporary, this.path)
      this.#saved = version
    } catch (error) {
      await rm(temporary, { force: true })
      this.onError(error)
    }
  }
}

/** Whether a process of this id exists (signal 0 only checks). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
