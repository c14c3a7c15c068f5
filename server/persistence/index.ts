import { readFile } from 'node:fs/promises'
import { writeFileAtomically } from '../../verify/atomic-write.js'
import { realFilePath } from './real-path.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { StateLock } from './lock.js'
import { watchChanges } from './changes.js'
import { checkWritable, loadState, writableAdvice } from './load.js'
import { removeStaleTemporaries } from './snapshot.js'
import { StateWriter } from './writer.js'

/**
 * Keeps a mock instance's world in a state file, so that an acknowledged change is on disk.
 * The state file is a snapshot (the format of `GET /__mock/state`); `<file>.log` holds the
 * changes made since, one line each, flushed to disk before the change is answered (see
 * {@link StateWriter}); `<file>.lock` keeps a second server off the file. At start the snapshot
 * is loaded and the log replayed (a flush a kill cut short is dropped: it was never answered).
 */
export class StatePersistence {
  /** The state file's real path: every spelling of it (a symbolic link, a relative path) shares one lock and one log. */
  readonly realPath: string
  readonly logPath: string
  #lock: StateLock | undefined
  #writer: StateWriter
  #closed = false

  constructor(
    /** The state file as it was named: what messages say. */
    readonly path: string,
    private readonly instance: MockInstance,
    private readonly onError: (message: string, error: unknown) => void = (message, error) =>
      console.error(message, error),
  ) {
    this.realPath = realFilePath(path)
    this.logPath = `${this.realPath}.log`
    this.#writer = new StateWriter(this.realPath, this.logPath, instance, onError)
  }

  /** Changes that could not be written during this run: undone, and answered 503. */
  get refused(): number {
    return this.#writer.refused
  }

  /** Counts the rollbacks so far: an answer handled while it moved may show, or be, an undone change. */
  get undone(): number {
    return this.#writer.rollbacks
  }

  /** Why the last change could not be written. */
  get lastFailure(): unknown {
    return this.#writer.lastFailure
  }

  /**
   * Takes the lock, loads the snapshot, replays the log and compacts what was replayed.
   * @returns whether a state was loaded (false: no file yet, the seeded world stays)
   * @throws Error naming the file and what is wrong (or which process holds it); files left as they are
   */
  async load(): Promise<boolean> {
    await checkWritable(this.realPath, this.logPath)
    const lock = StateLock.acquire(`${this.realPath}.lock`, this.path, `${this.path}.lock`)
    this.#lock = await lock.catch(this.#cannotWrite())
    try {
      await removeStaleTemporaries(this.realPath)
      const loaded = await loadState(this.realPath, this.logPath, this.instance)
      // The lines dropped were never answered; the log as found is kept for whoever wants to see them.
      if (loaded.torn) {
        const aside = `${this.logPath}.torn`
        await writeFileAtomically(aside, await readFile(this.logPath)).catch(this.#cannotWrite(`keeping ${aside}`))
        this.onError(
          `${this.logPath}: dropped ${loaded.torn} line(s) of a write cut short (never answered); ` +
            `the log as found is kept in ${aside}`,
          '',
        )
      }
      const compact = !!loaded.snapshot && loaded.replayed + loaded.torn > 0
      await this.#writer
        .start(loaded.snapshot, loaded.log, compact)
        .catch(this.#cannotWrite(compact ? `compacting ${this.logPath} into it` : `starting ${this.logPath}`))
      watchChanges(this.instance, (change) => this.#closed || this.#writer.changed(change))
      return loaded.snapshot !== undefined
    } catch (error) {
      await this.#release()
      throw error
    }
  }

  /**
   * What an answer must wait for before it is sent: every change made so far on disk. Undefined
   * when they already are; rejects when they could not be written (they were undone).
   */
  commit(): Promise<void> | undefined {
    return this.#writer.commit()
  }

  /** Writes the whole state into the state file now and empties the log: the file alone then holds everything. */
  flush(): Promise<void> {
    return this.#writer.snapshot()
  }

  /**
   * Writes a last snapshot (when anything changed; the log already holds every answered change)
   * and gives up the file.
   * @throws Error when changes could not be kept during the run: they were undone and refused
   */
  async close(): Promise<void> {
    if (!this.#closed && this.#writer.changedSinceSnapshot)
      await this.flush().catch((error) => this.onError(`Could not compact ${this.logPath} into ${this.path}:`, error))
    this.#closed = true
    await this.#release()
    if (this.refused === 0) return
    throw new Error(
      `${this.refused} change(s) could not be written to ${this.path} during this run ` +
        `(the last: ${(this.#writer.lastFailure as Error)?.message}): they were undone and answered 503. ` +
        'Every change answered 2xx is kept.',
    )
  }

  /** A system error of the start's own writes (`step`), as one that names the file and says what to do. */
  #cannotWrite(step?: string) {
    return (error: NodeJS.ErrnoException): never => {
      if (!error.code) throw error
      const what = step ? `${step} at start failed (${error.message})` : error.message
      throw new Error(`${this.path} cannot be written: ${what}. ${writableAdvice(error.code)}`)
    }
  }

  async #release(): Promise<void> {
    await this.#writer.close()
    await this.#lock?.release()
    this.#lock = undefined
  }
}
