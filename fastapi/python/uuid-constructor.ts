import { parsePythonInt } from './int-literal.js'

/**
 * CPython's `uuid.UUID(hex)`, which pydantic 1 calls for every `UUID` given as a string: the `urn:` and
 * `uuid:` prefixes (anywhere) and every hyphen are dropped, `{`/`}` are stripped from both ends, and what
 * is left must be 32 characters that `int(text, 16)` reads (so a sign, `0x`, spaces, underscores and
 * other scripts' digits slip through).
 * @returns the UUID as `str(UUID)` writes it (lowercase, hyphenated), or `undefined` for `ValueError`.
 * @example
 * pythonUuid('{urn:uuid:0B6F0F8E7B1A4C1E9A4E1F2D3C4B5A69}') // '0b6f0f8e-7b1a-4c1e-9a4e-1f2d3c4b5a69'
 * pythonUuid('not-a-uuid') // undefined
 */
export function pythonUuid(text: string): string | undefined {
  const hex = stripBraces(text.replaceAll('urn:', '').replaceAll('uuid:', '')).replaceAll('-', '')
  // `len()` counts code points.
  if ([...hex].length !== 32) return undefined
  const value = parsePythonInt(hex, 16)
  if (value === undefined || value < 0n || value >= 1n << 128n) return undefined
  const digits = value.toString(16).padStart(32, '0')
  return [digits.slice(0, 8), digits.slice(8, 12), digits.slice(12, 16), digits.slice(16, 20), digits.slice(20)].join(
    '-',
  )
}

/** `str.strip('{}')`. */
function stripBraces(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && (text[start] === '{' || text[start] === '}')) start++
  while (end > start && (text[end - 1] === '{' || text[end - 1] === '}')) end--
  return text.slice(start, end)
}
