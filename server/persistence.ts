import { open, readFile, rename, rm } from 'node:fs/promises'
import type { MockInstance } from '../mock/instance.js'
import { StateError } from '../mock/state.js'

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
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw error
    }
    try {
      await this.instance.importState(text)
    } catch (error) {
      if (!(error instanceof StateError)) throw error
      throw new Error(`${this.path} is not a usable state file: ${error.message}. It was left untouched: fix it, remove it, or pass another --state-file.`)
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
