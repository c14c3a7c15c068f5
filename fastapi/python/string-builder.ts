/**
 * Builds JS strings from Python code points in linear time.
 *
 * Code points are written as UTF-16 code units into a growable buffer and turned into a string
 * a chunk at a time, so no loop concatenates strings one character at a time. Lone surrogates
 * survive (`String.fromCharCode` keeps them), which `TextDecoder` would not allow.
 */
export class PythonStringBuilder {
  #units = new Uint16Array(64)
  #length = 0

  /** Appends one code point (0..0x10FFFF, lone surrogates included). */
  push(codePoint: number): void {
    this.#reserve(2)
    if (codePoint < 0x10000) {
      this.#units[this.#length++] = codePoint
      return
    }
    const offset = codePoint - 0x10000
    this.#units[this.#length++] = 0xd800 + (offset >> 10)
    this.#units[this.#length++] = 0xdc00 + (offset & 0x3ff)
  }

  /** Appends `codePoints[start..end)`. */
  pushRange(codePoints: Uint32Array, start: number, end: number): void {
    this.#reserve((end - start) * 2)
    for (let i = start; i < end; i++) this.push(codePoints[i] as number)
  }

  /** The text so far; the builder is emptied for reuse. */
  take(): string {
    const text = unitsToString(this.#units, 0, this.#length)
    this.#length = 0
    return text
  }

  #reserve(extra: number): void {
    const needed = this.#length + extra
    if (needed <= this.#units.length) return
    const grown = new Uint16Array(Math.max(needed, this.#units.length * 2))
    grown.set(this.#units.subarray(0, this.#length))
    this.#units = grown
  }
}

/** Stays well below engine limits on the number of arguments of one call. */
const CHUNK_SIZE = 8192

/**
 * Converts `units[start..end)` (UTF-16 code units, or code points known to be below 0x10000)
 * to a string.
 */
export function unitsToString(units: Uint16Array | Uint32Array, start: number, end: number): string {
  const chunks: string[] = []
  for (let from = start; from < end; from += CHUNK_SIZE) {
    const chunk = units.subarray(from, Math.min(from + CHUNK_SIZE, end))
    chunks.push(String.fromCharCode.apply(null, chunk as unknown as number[]))
  }
  return chunks.join('')
}
