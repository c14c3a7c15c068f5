import { unquote } from '../python/url-quote.js'

/**
 * `scope["query_string"].decode("latin-1")`: the client's bytes, one character per byte.
 * A fetch URL's query is already ASCII, so this only matters for a raw non-ASCII query,
 * which Starlette then sees as mojibake (`é` → `Ã©`).
 */
function latin1FromUtf8(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) {
    return text
  }
  return Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join('')
}

/** `unquote(part.replace('+', ' '))`, as `parse_qsl` does for names and values alike. */
const decodeField = (part: string): string => unquote(part.replaceAll('+', ' '))

/**
 * Starlette's `QueryParams` parsing: `urllib.parse.parse_qsl(qs, keep_blank_values=True)`.
 * Fields split on `&` only, empty fields are skipped, a field without `=` gets the value `''`,
 * `+` is a space and `%XX` is decoded as UTF-8 with U+FFFD for bad bytes.
 * @param rawQuery The query without its leading `?`, as `URL.search.slice(1)` gives it.
 * @example
 * parseQueryString('a=1&&b&c=x+y%21') // [['a', '1'], ['b', ''], ['c', 'x y!']]
 * @see https://github.com/python/cpython/blob/3.11/Lib/urllib/parse.py
 */
export function parseQueryString(rawQuery: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const field of latin1FromUtf8(rawQuery).split('&')) {
    if (field === '') {
      continue
    }
    const equals = field.indexOf('=')
    const name = equals === -1 ? field : field.slice(0, equals)
    const value = equals === -1 ? '' : field.slice(equals + 1)
    pairs.push([decodeField(name), decodeField(value)])
  }
  return pairs
}

/**
 * Starlette's `QueryParams` (an immutable multidict): FastAPI reads scalar params with
 * `get` (the **last** value wins) and list params with `getlist`.
 * @example
 * const params = new QueryParams('limit=5&limit=7&intents=a&intents=b')
 * params.get('limit') // '7'
 * params.getAll('intents') // ['a', 'b']
 * @see https://github.com/encode/starlette/blob/master/starlette/datastructures.py
 */
export class QueryParams {
  readonly #pairs: Array<[string, string]>
  readonly #last = new Map<string, string>()

  constructor(rawQuery: string) {
    this.#pairs = parseQueryString(rawQuery)
    for (const [name, value] of this.#pairs) {
      this.#last.set(name, value)
    }
  }

  /** The last value given for `name`, or `undefined` when it is absent. */
  get(name: string): string | undefined {
    return this.#last.get(name)
  }

  /** Every value given for `name`, in query order (`[]` when it is absent). */
  getAll(name: string): string[] {
    return this.#pairs.filter(([key]) => key === name).map(([, value]) => value)
  }

  /** Whether `name` appears at all, even with an empty value. */
  has(name: string): boolean {
    return this.#last.has(name)
  }

  /** Every `[name, value]` pair in query order (`multi_items()`). */
  entries(): Array<[string, string]> {
    return this.#pairs.map(([name, value]) => [name, value])
  }
}
