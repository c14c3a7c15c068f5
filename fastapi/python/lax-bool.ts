const FALSE_WORDS = new Set(['f', 'n', 'no', 'off', 'false'])
const TRUE_WORDS = new Set(['t', 'y', 'on', 'yes', 'true'])

/** Rust's `to_ascii_lowercase`: only A–Z change, so no Unicode folding sneaks in a match. */
const asciiLowercase = (text: string): string =>
  text.replace(/[A-Z]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 32))

/**
 * pydantic-core's `str_as_bool`: `0`/`1` exactly, or one of the words `f n no off false` /
 * `t y on yes true` in any ASCII case. Nothing is trimmed; anything else is `undefined`
 * (pydantic's `bool_parsing`).
 * @example
 * parseLaxBool('Yes') // true
 * parseLaxBool('0') // false
 * parseLaxBool(' true') // undefined
 * @see https://github.com/pydantic/pydantic-core/blob/v2.41.5/src/input/shared.rs
 */
export function parseLaxBool(text: string): boolean | undefined {
  if (text === '0') {
    return false
  }
  if (text === '1') {
    return true
  }
  const word = asciiLowercase(text)
  if (FALSE_WORDS.has(word)) {
    return false
  }
  return TRUE_WORDS.has(word) ? true : undefined
}
