/**
 * CPython 3.11 `urllib.parse.unquote` / `quote`, and the two places the FastAPI stack uses
 * them: uvicorn's `scope["path"]` and Starlette's slash-redirect `Location`.
 */

/** `_ALWAYS_SAFE`: never percent-encoded by `quote`. */
const ALWAYS_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~'

/** The `safe` Starlette's `RedirectResponse` passes to `quote`. */
const LOCATION_SAFE = ":/%#?=@[]!$&'()*+,;"

const HEX_PAIR = /^[0-9A-Fa-f]{2}/

// Python's utf-8 codec keeps a leading BOM, so TextDecoder must not swallow it.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true })
const utf8Encoder = new TextEncoder()

const PERCENT = 0x25

/** `unquote_to_bytes` for an ASCII run: `%XX` becomes a byte, any other `%` stays. */
function unquoteToBytes(ascii: string): Uint8Array {
  const [head = '', ...items] = ascii.split('%')
  const bytes: number[] = []
  const pushChars = (chars: string): void => {
    for (const char of chars) {
      bytes.push(char.charCodeAt(0))
    }
  }
  pushChars(head)
  for (const item of items) {
    const pair = HEX_PAIR.exec(item)
    bytes.push(pair === null ? PERCENT : Number.parseInt(pair[0], 16))
    pushChars(pair === null ? item : item.slice(2))
  }
  return Uint8Array.from(bytes)
}

/**
 * Python's `urllib.parse.unquote(text)` (`encoding='utf-8', errors='replace'`).
 * Only ASCII runs are decoded, each on its own, so bad UTF-8 becomes U+FFFD.
 * @example
 * unquote('caf%C3%A9') // 'café'
 * unquote('%FF%zz') // '\ufffd%zz'
 * @see https://github.com/python/cpython/blob/3.11/Lib/urllib/parse.py
 */
export function unquote(text: string): string {
  if (!text.includes('%')) {
    return text
  }
  return text.replace(/[\x00-\x7f]+/g, (ascii) => utf8Decoder.decode(unquoteToBytes(ascii)))
}

/**
 * uvicorn's `scope["path"]`: `urllib.parse.unquote` of the raw request path (as a fetch
 * `URL.pathname` gives it). `%2F` turns into a real `/` here, before routing.
 * @example
 * pathFromUrlPath('/v1/caf%C3%A9') // '/v1/café'
 * @see https://github.com/encode/uvicorn/blob/master/uvicorn/protocols/http/h11_impl.py
 */
export function pathFromUrlPath(pathname: string): string {
  return unquote(pathname)
}

/**
 * Python's `urllib.parse.quote(text, safe)`: UTF-8 bytes, `%XX` in upper case for every byte
 * that is neither always safe (`A-Z a-z 0-9 _ . - ~`) nor in `safe` (its ASCII part).
 * @note A lone surrogate is encoded as U+FFFD here; Python would raise instead.
 * @example
 * quote('a b/é') // 'a%20b/%C3%A9'
 */
export function quote(text: string, safe = '/'): string {
  const allowed = new Set(ALWAYS_SAFE + safe.replace(/[^\x00-\x7f]/g, ''))
  let quoted = ''
  for (const byte of utf8Encoder.encode(text)) {
    const char = String.fromCharCode(byte)
    quoted += allowed.has(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return quoted
}

/**
 * What Starlette's `RedirectResponse` puts in `Location`:
 * `quote(url, safe=":/%#?=@[]!$&'()*+,;")`. Existing `%XX` escapes and `+` survive.
 * @example
 * quoteForLocation('http://testserver/v1/café/?q=a b') // 'http://testserver/v1/caf%C3%A9/?q=a%20b'
 * @see https://github.com/encode/starlette/blob/master/starlette/responses.py
 */
export function quoteForLocation(url: string): string {
  return quote(url, LOCATION_SAFE)
}

/**
 * The `Location` of Starlette's `redirect_slashes` 307: `URL(scope=redirect_scope)`, i.e.
 * `{scheme}://{Host header}{path}` plus `?{raw query}` when there is one, then quoted.
 * `newPath` is the decoded `scope["path"]` with its trailing slash added or stripped
 * (Starlette strips them all: `rstrip("/")`); the host (with its port, if any) and the raw
 * query come from the request URL, the host from the `Host` header as sent where the host knows it.
 * @example
 * redirectLocation(new URL('http://testserver/v1/personas?limit=5&intents=a%20b'), '/v1/personas/')
 * // 'http://testserver/v1/personas/?limit=5&intents=a%20b'
 * @see https://github.com/encode/starlette/blob/master/starlette/routing.py
 */
export function redirectLocation(requestUrl: URL, newPath: string, host: string = requestUrl.host): string {
  const scheme = requestUrl.protocol.slice(0, -1)
  const query = requestUrl.search.slice(1)
  const url = `${scheme}://${host}${newPath}${query === '' ? '' : `?${query}`}`
  return quoteForLocation(url)
}
