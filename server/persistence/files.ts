import { installFile, prepareFile, syncFolder } from '../../verify/atomic-write.js'
import { digest, type LogContents } from './wal-read.js'
import { LogFile } from './wal.js'

/**
 * The log is compacted into a new snapshot once it is longer than four snapshots (writing
 * snapshots then costs about a quarter of what writing the log does), but at least 1 MiB (a
 * small world) and at most 256 MiB (a start reads the log whole).
 */
const MIN_LOG_BYTES = 1024 * 1024
const MAX_LOG_BYTES = 256 * 1024 * 1024

const COMPACT_AT_VARIABLE = 'AGENT_CONSOLE_MOCK_COMPACT_AT'

/**
 * `AGENT_CONSOLE_MOCK_COMPACT_AT=<bytes>`: compact whenever the log passes this, whatever the snapshot (tests).
 * @throws RangeError when it is set to anything but a whole number of bytes: ignored, it would leave the log to grow
 *   to the default bound without a word
 */
function fixedLimit(): number | undefined {
  const text = process.env[COMPACT_AT_VARIABLE]
  if (text === undefined || text === '') return undefined
  if (/^\d+$/.test(text) && Number(text) >= 1) return Number(text)
  throw new RangeError(
    `${COMPACT_AT_VARIABLE} must be a whole number of bytes, 1 or more, got ${JSON.stringify(text)}.`,
  )
}

const compactAt = (limit: number | undefined, snapshotBytes: number) =>
  limit ?? Math.max(MIN_LOG_BYTES, Math.min(4 * snapshotBytes, MAX_LOG_BYTES))

/** The state file as last written: its name in the log, and its size (the log is compacted past it). */
export interface Snapshot {
  hash: string
  bytes: number
}

/**
 * The snapshot and its log on disk. Changes are appended to the log; a snapshot replaces the state
 * file whole and starts the log over. Before its rename, a snapshot is named in the log it empties
 * (a kill between the rename and the log's new start then finds a log the snapshot holds).
 */
export class StateFiles {
  #log: LogFile | undefined
  #snapshot: Snapshot | undefined
  /** A snapshot was asked for (a compaction, a flush); one failed before or during its rename. */
  #requested = false
  #halfway = false
  /** Read as the files are opened: a bad value stops the start, before anything is written. */
  readonly #fixedLimit = fixedLimit()

  constructor(
    private readonly path: string,
    private readonly logPath: string,
    private readonly onError: (message: string, error: unknown) => void,
  ) {}

  /** Goes on from what a start found; `compact`: the state to write at once (a log was replayed). */
  async start(snapshot: Snapshot | undefined, log: LogContents | undefined, compact?: string): Promise<void> {
    this.#snapshot = snapshot
    if (snapshot || compact !== undefined) this.#log = await this.#openLog(log)
    if (compact !== undefined) await this.writeSnapshot(compact, true)
    else if (snapshot && !this.#log?.started) await this.#log!.reset(snapshot.hash)
  }

  /** Whether a snapshot waits to be written even without a change. */
  get snapshotRequested(): boolean {
    return this.#requested
  }

  /** Whether the next write must be a snapshot: asked for, none yet, one failed halfway, or a log not started. */
  get needSnapshot(): boolean {
    return this.#requested || !this.canAppend
  }

  /** Whether the log can take changes: started, following the state file, no snapshot left halfway. */
  get canAppend(): boolean {
    return !this.#halfway && this.#snapshot !== undefined && this.#log?.started === true
  }

  /** Asks for a snapshot at the next write. */
  requestSnapshot(): void {
    this.#requested = true
  }

  /** Appends one flush's changes to the log; resolves once they are on disk. */
  async append(jsons: readonly string[]): Promise<void> {
    await this.#log!.append(jsons)
    if (this.#log!.size > compactAt(this.#fixedLimit, this.#snapshot!.bytes)) this.#requested = true
  }

  /**
   * Replaces the state file with `text` and starts the log over. Resolves once the snapshot is
   * renamed in (what follows cannot lose it: a log that cannot start is reported, and the next
   * write is a snapshot again); rejects when it is not.
   */
  async writeSnapshot(text: string, atStart = false): Promise<void> {
    const bytes = Buffer.from(text)
    const hash = digest(bytes)
    // A snapshot that could not even be written out (a full disk) changed nothing: the log goes on as it was.
    const temporary = await prepareFile(this.path, bytes)
    // From here until the snapshot is in place, nothing goes to the log: a failed rename may still have happened.
    this.#halfway = true
    await this.#log?.handOver(hash)
    await installFile(temporary, this.path)
    this.#snapshot = { hash, bytes: bytes.byteLength }
    this.#halfway = false
    this.#requested = false
    try {
      this.#log ??= await this.#openLog(undefined)
      await this.#log.reset(hash)
    } catch (error) {
      if (atStart) throw error
      this.onError(`Could not start ${this.logPath} again (the next change writes the whole state):`, error)
    }
  }

  async close(): Promise<void> {
    await this.#log?.close().catch(() => undefined)
    this.#log = undefined
  }

  async #openLog(found: LogContents | undefined): Promise<LogFile> {
    const log = await LogFile.open(this.logPath, found)
    await syncFolder(this.logPath)
    return log
  }
}
