/**
 * Records' wire JSON, kept as UTF-8 in a few large chunks and found by record. A kept
 * record costs its bytes and one `Map` entry: no object of its own (a `Uint8Array` each
 * cost ~200 bytes more and, being many small objects, slowed every full GC), and no string
 * for the garbage collector to move. Records must be replaced, never changed in place, for
 * their JSON to stay true (the collections' records are).
 *
 * Once its chunks reach `maxBytes`, later records are not kept: memory stays bounded and nothing
 * churns (replacing kept JSON would turn every request into old-generation garbage).
 * @example const arena = new JsonArena(64 * 2 ** 20); arena.get(record) ?? arena.keep(record, json)
 */
export class JsonArena {
  readonly #chunks: Uint8Array[] = []
  /** Where each kept record is: [start, length] at 2 × slot; start is chunk << CHUNK_BITS | offset. */
  #spans = new Uint32Array(2 * 1024)
  readonly #slots = new Map<object, number>()
  #used = 0
  #full = false
  readonly #maxChunks: number

  /** @param maxBytes memory the kept JSON may take, in whole chunks of 1 MiB (at most 4 GiB) */
  constructor(maxBytes: number) {
    this.#maxChunks = Math.min(MAX_CHUNKS, Math.floor(maxBytes / CHUNK_BYTES))
  }

  /** Bytes the arena holds (its chunks, whole). */
  get bytes(): number {
    return this.#chunks.length * CHUNK_BYTES
  }

  /** The JSON kept for `record`, or undefined. */
  get(record: object): Uint8Array | undefined {
    const slot = this.#slots.get(record)
    if (slot === undefined) return undefined
    const start = this.#spans[2 * slot] as number
    const offset = start & OFFSET_MASK
    return (this.#chunks[start >>> CHUNK_BITS] as Uint8Array).subarray(offset, offset + (this.#spans[2 * slot + 1] as number))
  }

  /** Keeps `json` as the JSON of `record`, when there is room. @returns the kept bytes, or undefined */
  keep(record: object, json: string): Uint8Array | undefined {
    if (this.#full || json.length > CHUNK_BYTES / 3) return undefined
    let chunk = this.#chunks.at(-1)
    let written = chunk && this.#encodeInto(chunk, json)
    if (chunk === undefined || written === undefined) {
      if (this.#chunks.length >= this.#maxChunks) return void (this.#full = true)
      chunk = new Uint8Array(CHUNK_BYTES)
      this.#chunks.push(chunk)
      this.#used = 0
      written = this.#encodeInto(chunk, json) as number
    }
    const slot = this.#slots.size
    if (2 * slot + 2 > this.#spans.length) this.#spans = grown(this.#spans)
    this.#spans[2 * slot] = ((this.#chunks.length - 1) << CHUNK_BITS) | this.#used
    this.#spans[2 * slot + 1] = written
    this.#slots.set(record, slot)
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

const CHUNK_BITS = 20
/** 1 MiB: large enough that chunks are few, small enough that the last one wastes little. */
const CHUNK_BYTES = 1 << CHUNK_BITS
const OFFSET_MASK = CHUNK_BYTES - 1
/** A chunk's index must fit in a 32-bit start beside the offset. */
const MAX_CHUNKS = 2 ** (32 - CHUNK_BITS)

const utf8 = new TextEncoder()

function grown(spans: Uint32Array): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(spans.length * 2)
  larger.set(spans)
  return larger
}
