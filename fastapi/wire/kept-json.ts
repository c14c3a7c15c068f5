/**
 * The wire JSON of one list's records (a team's personas, a policy's rules), by position,
 * kept as UTF-8 in 1 MiB chunks. A kept record costs its bytes and 8 bytes of position
 * table: no object of its own (a `Uint8Array` each added an object's cost to its bytes and
 * slowed every full GC), and finding it is two array reads, where a `Map` keyed by record missed the
 * CPU caches several times per record in a large world.
 *
 * The list must be replaced, never changed in place, when its records change (the world's
 * indexes are rebuilt on every write), so that a position's JSON stays true. Its chunks are
 * taken from a {@link JsonBudget} shared by the lists of one instance (of all of a server's sessions).
 * @example const kept = new ListJson(budget, list.length); kept.get(7) ?? kept.keep(7, json)
 */
export class ListJson {
  readonly #chunks: Uint8Array[] = []
  /** [start, length] of position p at 2p (length 0: not kept); start is chunk << CHUNK_BITS | offset. */
  readonly #spans: Uint32Array
  readonly #budget: JsonBudget
  /** What this list took from the budget, given back once the list is collected. */
  readonly #taken = { bytes: 0 }
  #used = 0

  constructor(budget: JsonBudget, size: number) {
    this.#budget = budget
    this.#spans = new Uint32Array(2 * size)
    budget.track(this, this.#taken)
  }

  /** The JSON kept for the record at `position`, or undefined. */
  get(position: number): Uint8Array | undefined {
    const length = this.#spans[2 * position + 1]
    if (!length) return undefined
    const start = this.#spans[2 * position] as number
    const offset = start & OFFSET_MASK
    return (this.#chunks[start >>> CHUNK_BITS] as Uint8Array).subarray(offset, offset + length)
  }

  /** Keeps `json` for the record at `position`, when the budget allows. @returns the kept bytes, or undefined */
  keep(position: number, json: string): Uint8Array | undefined {
    if (2 * position >= this.#spans.length || json.length === 0 || json.length > CHUNK_BYTES / 3) return undefined
    let chunk = this.#chunks.at(-1)
    let written = chunk && this.#encodeInto(chunk, json)
    if (chunk === undefined || written === undefined) {
      if (this.#chunks.length >= MAX_CHUNKS || !this.#budget.take(CHUNK_BYTES, this.#taken)) return undefined
      chunk = new Uint8Array(CHUNK_BYTES)
      this.#chunks.push(chunk)
      this.#used = 0
      written = this.#encodeInto(chunk, json) as number
    }
    this.#spans[2 * position] = ((this.#chunks.length - 1) << CHUNK_BITS) | this.#used
    this.#spans[2 * position + 1] = written
    const bytes = chunk.subarray(this.#used, this.#used + written)
    this.#used += written
    return bytes
  }

  /** Writes `json` into the free end of `chunk`: the bytes written, or undefined when it does not fit. */
  #encodeInto(chunk: Uint8Array, json: string): number | undefined {
    const { read, written } = utf8.encodeInto(json, chunk.subarray(this.#used))
    return read === json.length ? written : undefined
  }
}

/**
 * The bytes of kept JSON that lists may hold together: those of one instance's worlds, or of every world of a
 * server's sessions (which would otherwise keep a copy each). A list's bytes come
 * back once the list is collected (its world's index was rebuilt, its session let go), so rebuilding never
 * uses the budget up. Past it, records are written each time: memory stays bounded, and
 * nothing churns (replacing kept JSON would turn every request into old-generation garbage).
 */
export class JsonBudget {
  /**
   * What one instance's lists may keep unless told otherwise: the JSON of every persona of a 100,000-persona
   * team fits.
   */
  static readonly DEFAULT_BYTES = 96 * 2 ** 20

  #left: number
  readonly #returns = new FinalizationRegistry<{ bytes: number }>((taken) => void (this.#left += taken.bytes))

  constructor(readonly maxBytes: number = JsonBudget.DEFAULT_BYTES) {
    this.#left = maxBytes
  }

  /** The bytes the lists hold now (given back only once a list is collected). */
  get bytesInUse(): number {
    return this.maxBytes - this.#left
  }

  /** Takes `bytes` for `taken`'s list, when that many are left. */
  take(bytes: number, taken: { bytes: number }): boolean {
    if (bytes > this.#left) return false
    this.#left -= bytes
    taken.bytes += bytes
    return true
  }

  /** Gives `taken.bytes` back once `list` is collected. */
  track(list: object, taken: { bytes: number }): void {
    this.#returns.register(list, taken)
  }
}

const CHUNK_BITS = 20
/** 1 MiB: large enough that chunks are few, small enough that the last one wastes little. */
const CHUNK_BYTES = 1 << CHUNK_BITS
const OFFSET_MASK = CHUNK_BYTES - 1
/** A chunk's index must fit in a 32-bit start beside the offset. */
const MAX_CHUNKS = 2 ** (32 - CHUNK_BITS)

const utf8 = new TextEncoder()
