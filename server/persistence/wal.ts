import { type FileHandle, open } from 'node:fs/promises'
import { type LogContents, logCheckpoint, logHeader, logLine, type LogVersion } from './wal-read.js'

/**
 * The open log a server appends to: `ready` (appends go on after its last whole line), `dirty` (a
 * failed append left bytes after it, cut off before the next one) or `stale` (not started: a new
 * file, one that follows no snapshot, or one a reset left halfway; only a reset starts it).
 */
export class LogFile {
  #state: 'ready' | 'dirty' | 'stale'
  #size: number
  /** Whole lines: the position the next line is written at, which its checksum covers. */
  #lines: number
  #group: number
  /** A log found in version 1 goes on in it until a reset starts one of the current version. */
  #version: LogVersion | undefined

  private constructor(
    private readonly handle: FileHandle,
    found: LogContents | undefined,
  ) {
    this.#state = found?.base === undefined ? 'stale' : found.torn ? 'dirty' : 'ready'
    this.#size = found?.size ?? 0
    this.#lines = found?.lines ?? 0
    this.#group = found?.group ?? 0
    this.#version = found?.version
  }

  /** Opens (or creates) the log to go on after what {@link readLog} found in it (`found` of this very snapshot). */
  static async open(path: string, found?: LogContents): Promise<LogFile> {
    return new LogFile(await open(path, 'a'), found)
  }

  /** Bytes of whole lines: what the log holds for sure. */
  get size(): number {
    return this.#size
  }

  get started(): boolean {
    return this.#state !== 'stale'
  }

  /** Appends the lines of one flush and waits until they are on disk; on failure cuts the file back. */
  async append(jsons: readonly string[]): Promise<void> {
    if (this.#state === 'stale') throw new Error('the log does not follow the state file yet')
    // What a failed flush left must not precede the next flush's lines.
    if (this.#state === 'dirty') await this.handle.truncate(this.#size)
    this.#state = 'ready'
    const group = this.#group + 1
    const lines = jsons.map((json, index) => logLine(this.#lines + index, group, json, this.#version))
    const bytes = Buffer.from(lines.join(''))
    try {
      await this.#write(bytes)
      await this.handle.datasync()
    } catch (error) {
      // Cut back and flushed: lines a failed flush left must not come back after a crash.
      this.#state = 'dirty'
      await this.handle
        .truncate(this.#size)
        .then(() => this.handle.datasync())
        .then(
          () => (this.#state = 'ready'),
          () => undefined,
        )
      throw error
    }
    this.#group = group
    this.#size += bytes.byteLength
    this.#lines += jsons.length
  }

  /**
   * Called before a new snapshot is renamed in: a started log names it (a kill right after the
   * rename then finds a log whose changes the snapshot holds); a stale one is emptied.
   */
  async handOver(snapshot: string): Promise<void> {
    if (this.#state !== 'stale') return this.append([logCheckpoint(snapshot)])
    await this.handle.truncate(0)
    await this.handle.datasync()
  }

  /** Empties the log and starts it over after the snapshot `base`; on disk before it resolves. */
  async reset(base: string): Promise<void> {
    this.#state = 'stale'
    await this.handle.truncate(0)
    const bytes = Buffer.from(logLine(0, 0, logHeader(base)))
    await this.#write(bytes)
    await this.handle.datasync()
    this.#state = 'ready'
    this.#size = bytes.byteLength
    this.#lines = 1
    this.#group = 0
    this.#version = undefined
  }

  close(): Promise<void> {
    return this.handle.close()
  }

  async #write(bytes: Buffer): Promise<void> {
    for (let offset = 0; offset < bytes.byteLength; ) {
      const { bytesWritten } = await this.handle.write(bytes, offset)
      offset += bytesWritten
    }
  }
}
