import { stateText } from '../../model/state/stream.js'
import type { MockInstance } from '../../core/instance/instance.js'
import type { Change } from './changes.js'
import { type Snapshot, StateFiles } from './files.js'
import type { LogContents } from './wal-read.js'

/** Changes one flush writes, and the promise their answers wait on. */
class Batch {
  readonly changes: Change[] = []
  resolve!: () => void
  reject!: (error: unknown) => void
  readonly done = new Promise<void>((resolve, reject) => ((this.resolve = resolve), (this.reject = reject)))
  constructor() {
    this.done.catch(() => undefined) // a batch nobody waited for must not end the process
  }
}

/** Whether every change of a batch has a log line (a reset or an import has none: only a snapshot holds it). */
const loggable = (batch: Batch): boolean => batch.changes.every((change) => change.json !== undefined)

/**
 * Writes the changes of one world as they come: each flush appends the changes made since the
 * last one to the log and waits for the disk (group commit); a whole new world (reset, import),
 * a log past its size, or no state file yet writes a snapshot instead. A flush that fails undoes
 * its changes and every later one (they were built on them) and rejects their answers.
 */
export class StateWriter {
  readonly #files: StateFiles
  /** The world's version in the last snapshot: whether a stop has anything to write. */
  #snapshotVersion = ''
  #open = new Batch()
  #flushing: Batch | undefined
  #writing: Promise<void> | undefined
  refused = 0
  rollbacks = 0
  lastFailure: unknown

  constructor(
    private readonly path: string,
    logPath: string,
    private readonly instance: MockInstance,
    private readonly onError: (message: string, error: unknown) => void,
  ) {
    this.#files = new StateFiles(path, logPath, onError)
  }

  /** Goes on from what a start loaded: compacts what was replayed, starts a log that follows nothing. */
  async start(snapshot: Snapshot | undefined, log: LogContents | undefined, compact: boolean): Promise<void> {
    this.#snapshotVersion = this.instance.stateVersion
    await this.#files.start(snapshot, log, compact ? await stateText(this.instance.stateSnapshot()) : undefined)
  }

  changed(change: Change): void {
    this.#open.changes.push(change)
    this.#writing ??= this.#runSoon()
  }

  /** Every change made so far on disk: undefined when they are; rejects when they were undone. */
  commit(): Promise<void> | undefined {
    return this.#open.changes.length > 0 ? this.#open.done : this.#flushing?.done
  }

  /** Whether the world changed since the last snapshot (in the log or not). */
  get changedSinceSnapshot(): boolean {
    return this.instance.stateVersion !== this.#snapshotVersion
  }

  /** Waits for the flushes under way, then writes a snapshot. @throws what kept it from being written */
  async snapshot(): Promise<void> {
    this.#files.requestSnapshot()
    for (;;) {
      this.#writing ??= this.#run()
      await this.#writing
      if (!this.#files.snapshotRequested && !this.#writing) return
      if (!this.#writing) throw this.lastFailure
    }
  }

  close(): Promise<void> {
    return this.#files.close()
  }

  /** Starts flushing once the current task is done (its changes then share the flush). */
  #runSoon(): Promise<void> {
    // Nothing here should throw (a failed write is undone); if it does, it is reported, not left unhandled.
    return Promise.resolve()
      .then(() => this.#run())
      .catch((error: unknown) => this.onError(`Writing ${this.path} failed unexpectedly:`, error))
  }

  /** Flushes batch after batch while changes come in; stops at a failure (the next change starts it again). */
  async #run(): Promise<void> {
    try {
      while (this.#open.changes.length > 0 || this.#files.snapshotRequested) {
        await this.instance.settled
        if (!(await this.#flushNext())) break
      }
    } finally {
      this.#writing = undefined
      if (this.#open.changes.length > 0) this.#writing = this.#runSoon()
    }
  }

  /** Flushes the open batch: true to go on, false after a failure. Goes on without one while {@link #mayTake} says no. */
  async #flushNext(): Promise<boolean> {
    let batch: Batch | undefined
    try {
      if (!this.#mayTake()) return true
      if (!this.#files.needSnapshot && loggable(this.#open)) {
        batch = this.#take()
        await this.#files.append(batch.changes.map((change) => change.json!))
      } else {
        // The state exported is the batch's: no bulk add is half stored while the world is held.
        const taken = await this.#exclusive(() => {
          if (!this.#mayTake()) return undefined
          batch = this.#take()
          return [this.instance.stateSnapshot(), this.instance.stateVersion] as const
        })
        if (!taken) return true
        const [state, version] = taken
        // Written out in slices: a large world's snapshot never holds the event loop for long.
        const written = await this.#files.writeSnapshot(await stateText(state)).then(
          () => true,
          (error: unknown) => this.#appendInstead(batch!, error),
        )
        if (!written) return false
        this.#snapshotVersion = version
      }
      batch!.resolve()
      return true
    } catch (error) {
      this.lastFailure = error
      await this.#rollback(batch ?? this.#take(), error)
      return false
    } finally {
      this.#flushing = undefined
    }
  }

  /**
   * After a snapshot that could not be written: a compaction only asked for (the log as it was, started and
   * following the state file) leaves the log to take the batch, as it would have without one, so a full disk
   * refuses only the changes that do not fit. The next flush tries the snapshot again. Anything else fails.
   * @returns false once the batch is on disk (this run stops, the changes made meanwhile start the next); throws
   *   `error` when the log cannot take it
   */
  async #appendInstead(batch: Batch, error: unknown): Promise<false> {
    // The batch as taken: changes made while the world was awaited joined it, a reset or an import among them.
    if (!loggable(batch) || !this.#files.canAppend) throw error
    // With no change of its own (a compaction alone), the changes made meanwhile were built on nothing that failed.
    if (batch.changes.length > 0) await this.#files.append(batch.changes.map((change) => change.json!))
    this.lastFailure = error
    this.onError(`Could not compact ${this.path}; its changes go on to the log:`, error)
    batch.resolve()
    return false
  }

  /**
   * Whether a batch may be taken now: not while a change of several steps is under way (a scenario selection,
   * `MockInstance.asOneChange`), which goes into one batch whole once it has ended, so that a disk that fails refuses
   * all of it or none. The flushes wait for it (`instance.settled`).
   */
  #mayTake(): boolean {
    return this.instance.settled === undefined
  }

  #take(): Batch {
    const batch = this.#open
    this.#open = new Batch()
    this.#flushing = batch
    return batch
  }

  /** Undoes the batch and every change made after it (built on it), newest first; their answers are refused. */
  async #rollback(batch: Batch, error: unknown): Promise<void> {
    await this.#exclusive(() => {
      const later = this.#open
      this.#open = new Batch()
      const changes = [...batch.changes, ...later.changes]
      for (const change of changes.reverse()) change.undo()
      this.refused += changes.length
      if (changes.length > 0) this.rollbacks++
      batch.reject(error)
      later.reject(error)
    })
    this.onError(`Could not write ${this.path}: ${this.refused} change(s) undone and refused so far:`, error)
  }

  /** Runs `action` while the current world takes no other write (a world swapped in meanwhile is waited for too). */
  async #exclusive<T>(action: () => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const world = this.instance.world
      const done = await world.exclusive(async () =>
        this.instance.world === world || attempt > 8 ? { value: action() } : undefined,
      )
      if (done) return done.value
    }
  }
}
