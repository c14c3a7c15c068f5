import { writeFileAtomically } from '../../verify/atomic-write.js'

/** Milliseconds between two writes of the recorded contract at most (a busy proxy rewrites it once a second). */
export const RECORD_INTERVAL_MS = 1000

/**
 * The recorded contract on disk as it grows (`proxy --record`): rewritten whole after new interactions,
 * atomically (verify/atomic-write.ts), so a kill at any moment, `kill -9` included, leaves the file as it was
 * at its last write, a whole contract `verify --replay` reads: at most the last second's interactions are
 * missing. Writes are spaced by {@link RECORD_INTERVAL_MS}, so a busy proxy does not rewrite it per request.
 */
export class ContractFile {
  #timer: NodeJS.Timeout | undefined
  #writing: Promise<void> = Promise.resolve()
  #lastWrite = 0
  #written: string | undefined
  #failure: Error | undefined

  /**
   * @param text the contract's text as it is now
   * @param onError hears a write made on its own that failed (the next one tries again; {@link close} throws)
   */
  constructor(
    readonly path: string,
    private readonly text: () => Promise<string>,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  /** The contract changed: written within {@link RECORD_INTERVAL_MS}. */
  changed(): void {
    if (this.#timer) return
    const wait = Math.max(0, this.#lastWrite + RECORD_INTERVAL_MS - Date.now())
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      void this.write().then(() => this.#failure && this.onError(this.#failure))
    }, wait)
    // A pending write does not keep the process alive: close() writes what is left.
    this.#timer.unref()
  }

  /** Writes the contract now (after any write in progress). */
  write(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      this.#lastWrite = Date.now()
      try {
        const text = await this.text()
        // Repeats of requests already recorded change nothing: no rewrite.
        if (text === this.#written) return
        await writeFileAtomically(this.path, text)
        this.#written = text
        this.#failure = undefined
      } catch (error) {
        this.#failure = new Error(`cannot write the recorded contract to ${this.path}: ${(error as Error).message}`)
      }
    })
    return this.#writing
  }

  /** Writes what is left. @throws the failure when the contract could not be written */
  async close(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.write()
    if (this.#failure) throw this.#failure
  }
}
