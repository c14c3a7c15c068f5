/**
 * The first half of CPython 3.11's `json.loads(bytes)`:
 * `s = b.decode(json.detect_encoding(b), 'surrogatepass')`.
 *
 * The text comes back as an array of code points, because JSON error positions are indexes
 * into a Python `str` (one per code point) and because `surrogatepass` keeps lone surrogates,
 * which `TextDecoder` would turn into U+FFFD.
 */

/** The codecs `json.detect_encoding` can pick. */
type JsonEncoding = 'utf-8' | 'utf-8-sig' | 'utf-16' | 'utf-16-le' | 'utf-16-be' | 'utf-32' | 'utf-32-le' | 'utf-32-be'

/**
 * `json.detect_encoding` from `Lib/json/__init__.py`: a BOM first, then the positions of NUL
 * bytes among the first two or four bytes (JSON text starts with ASCII).
 */
function detectJsonEncoding(b: Uint8Array): JsonEncoding {
  if (startsWith(b, [0x00, 0x00, 0xfe, 0xff]) || startsWith(b, [0xff, 0xfe, 0x00, 0x00])) {
    return 'utf-32'
  }
  if (startsWith(b, [0xfe, 0xff]) || startsWith(b, [0xff, 0xfe])) return 'utf-16'
  if (startsWith(b, [0xef, 0xbb, 0xbf])) return 'utf-8-sig'
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? 'utf-16-be' : 'utf-32-be'
    if (!b[1]) return b[2] || b[3] ? 'utf-16-le' : 'utf-32-le'
  } else if (b.length === 2) {
    if (!b[0]) return 'utf-16-be'
    if (!b[1]) return 'utf-16-le'
  }
  return 'utf-8'
}

/**
 * Decodes `bytes` like `bytes.decode(detect_encoding(bytes), 'surrogatepass')`.
 *
 * @returns the code points of the text, or `null` where Python raises `UnicodeDecodeError`.
 */
export function decodePythonText(bytes: Uint8Array): Uint32Array | null {
  switch (detectJsonEncoding(bytes)) {
    case 'utf-8':
      return decodeUtf8(bytes, 0)
    case 'utf-8-sig':
      return decodeUtf8(bytes, 3)
    case 'utf-16':
      return decodeUtf16(bytes, 2, bytes[0] === 0xfe)
    case 'utf-16-be':
      return decodeUtf16(bytes, 0, true)
    case 'utf-16-le':
      return decodeUtf16(bytes, 0, false)
    case 'utf-32':
      return decodeUtf32(bytes, 4, bytes[0] === 0x00)
    case 'utf-32-be':
      return decodeUtf32(bytes, 0, true)
    case 'utf-32-le':
      return decodeUtf32(bytes, 0, false)
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((byte, i) => bytes[i] === byte)
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80

/**
 * Strict UTF-8 (no overlongs, nothing above U+10FFFF), except that a three-byte sequence for a
 * surrogate (`ED A0..BF 80..BF`) decodes to that lone surrogate: the `surrogatepass` handler.
 */
function decodeUtf8(bytes: Uint8Array, start: number): Uint32Array | null {
  const out = new Uint32Array(bytes.length - start)
  let count = 0
  let i = start
  while (i < bytes.length) {
    const lead = bytes[i] as number
    if (lead < 0x80) {
      out[count++] = lead
      i++
      continue
    }
    const length = utf8SequenceLength(bytes, i)
    if (length === 0) return null
    out[count++] = utf8CodePoint(bytes, i, length)
    i += length
  }
  return out.subarray(0, count)
}

/** The byte length of a well-formed sequence starting at `i` (lead byte ≥ 0x80), or 0. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number
  const second = bytes[i + 1] ?? 0
  const third = bytes[i + 2] ?? 0
  const fourth = bytes[i + 3] ?? 0
  if (lead >= 0xc2 && lead <= 0xdf) return isContinuation(second) ? 2 : 0
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 needs A0..BF to avoid overlongs; ED A0..BF (surrogates) is what surrogatepass admits.
    const secondOk = lead === 0xe0 ? second >= 0xa0 && second <= 0xbf : isContinuation(second)
    return secondOk && isContinuation(third) ? 3 : 0
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80
    const high = lead === 0xf4 ? 0x8f : 0xbf
    const secondOk = second >= low && second <= high
    return secondOk && isContinuation(third) && isContinuation(fourth) ? 4 : 0
  }
  return 0
}

function utf8CodePoint(bytes: Uint8Array, i: number, length: number): number {
  const lead = bytes[i] as number
  let codePoint = lead & (0xff >> (length + 1))
  for (let k = 1; k < length; k++) {
    codePoint = (codePoint << 6) | ((bytes[i + k] as number) & 0x3f)
  }
  return codePoint
}

/**
 * UTF-16: an odd byte count is "truncated data" (surrogatepass cannot rescue a single byte);
 * a valid high + low pair joins; any other surrogate unit is kept alone (surrogatepass).
 */
function decodeUtf16(bytes: Uint8Array, start: number, bigEndian: boolean): Uint32Array | null {
  if ((bytes.length - start) % 2 !== 0) return null
  const unitAt = (i: number): number =>
    bigEndian
      ? ((bytes[i] as number) << 8) | (bytes[i + 1] as number)
      : ((bytes[i + 1] as number) << 8) | (bytes[i] as number)
  const out = new Uint32Array((bytes.length - start) / 2)
  let count = 0
  for (let i = start; i < bytes.length; i += 2) {
    const unit = unitAt(i)
    const next = i + 2 < bytes.length ? unitAt(i + 2) : -1
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out[count++] = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00)
      i += 2
    } else {
      out[count++] = unit
    }
  }
  return out.subarray(0, count)
}

/** UTF-32: whole four-byte units only, nothing above U+10FFFF; surrogates pass. */
function decodeUtf32(bytes: Uint8Array, start: number, bigEndian: boolean): Uint32Array | null {
  if ((bytes.length - start) % 4 !== 0) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Uint32Array((bytes.length - start) / 4)
  for (let i = start, k = 0; i < bytes.length; i += 4, k++) {
    const codePoint = view.getUint32(i, !bigEndian)
    if (codePoint > 0x10ffff) return null
    out[k] = codePoint
  }
  return out
}
