import fc from 'fast-check'

/** The seeded ids a generated request may name (and then mangle). */
export interface Ids {
  teams: string[]
  dimensions: string[]
  policies: string[]
}

/** One generated request: `target` is the path and query exactly as put after the origin. */
export interface FuzzRequest {
  method: string
  target: string
  headers: Record<string, string>
  body?: string | Uint8Array<ArrayBuffer>
}

const utf8 = new TextEncoder()

/**
 * Percent-encodes every byte but the unreserved ones. UTF-8 first, so a lone surrogate (which
 * `encodeURIComponent` throws on) goes out as U+FFFD, as a browser would send it.
 */
export function percentEncode(text: string): string {
  let out = ''
  for (const byte of utf8.encode(text)) {
    const char = String.fromCharCode(byte)
    out += /[A-Za-z0-9_.~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** Text of any code points, surrogate halves included: what a careless client sends. */
const anyText = (maxLength = 24) => fc.string({ unit: 'binary', maxLength })

/** Escapes and characters that have tripped URL and query parsers elsewhere. */
const TRICKY = [
  '',
  '%',
  '%2',
  '%zz',
  '%2F',
  '%2f',
  '%00',
  '%0A',
  '%0D%0A',
  '%FF',
  '%C3%A9',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '..',
  '.',
  '+',
  '%20',
  ';',
  ':',
  '@',
  '~',
  '!',
  '$',
  "'",
  '(',
  ')',
  '*',
  ',',
  '%25',
  '%3F',
  '%23',
]

/** A UUID in the spellings pydantic accepts or refuses: canonical, upper case, braces, urn:, hex only, none at all. */
export const uuidLike = (ids: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...ids), weight: 10 },
    fc.constantFrom(...ids).map((id) => id.toUpperCase()),
    fc.constantFrom(...ids).map((id) => id.replaceAll('-', '')),
    fc.constantFrom(...ids).map((id) => `{${id}}`),
    fc.constantFrom(...ids).map((id) => `urn:uuid:${id}`),
    fc.constantFrom(...ids).map((id) => `${id.slice(0, -1)}g`),
    fc.uuid(),
    anyText(),
  )

const intText = fc.oneof(
  fc.integer({ min: -5, max: 1005 }).map(String),
  fc.constantFrom(
    '',
    ' 7',
    '7 ',
    '+3',
    '-0',
    '0x10',
    '1e2',
    '1.0',
    '1.5',
    '１２',
    '٣',
    '9'.repeat(30),
    '1_000',
    'NaN',
    'inf',
    'true',
    '\t5\n',
  ),
  anyText(8),
)
const boolText = fc.oneof(
  fc.constantFrom(
    'true',
    'false',
    '1',
    '0',
    'yes',
    'no',
    'on',
    'off',
    't',
    'f',
    'TRUE',
    ' true',
    '',
    'y',
    'n',
    '2',
    '1.0',
  ),
  anyText(8),
)

/** A query: known parameters with plausible and implausible values, unknown ones, repeats, odd separators. */
export const queryString = (ids: Ids) => {
  const pair = fc.oneof(
    fc.tuple(fc.constant('team_id'), uuidLike(ids.teams)),
    fc.tuple(
      fc.constant('intents'),
      fc.oneof(fc.constantFrom('benign', 'curious', 'adversarial', 'malicious', 'BENIGN', 'evil', ''), anyText(8)),
    ),
    fc.tuple(fc.constant('is_preset'), boolText),
    fc.tuple(fc.constant('search'), fc.oneof(fc.constantFrom('a', 'an', 'zoë', 'ENGINEER', '%', '_'), anyText())),
    fc.tuple(fc.constantFrom('limit', 'offset'), intText),
    fc.tuple(fc.oneof(fc.constantFrom('LIMIT', 'team', 'intents[]', 'offset ', ''), anyText(6)), anyText(8)),
  )
  const field = fc
    .tuple(pair, fc.constantFrom('encoded', 'encoded', 'plus', 'bare', 'tricky'))
    .map(([[name, value], style]) => {
      switch (style) {
        case 'plus':
          return `${percentEncode(name)}=${percentEncode(value).replaceAll('%20', '+')}`
        case 'bare':
          return percentEncode(name)
        case 'tricky':
          return `${percentEncode(name)}=${TRICKY[value.length % TRICKY.length]}`
        default:
          return `${percentEncode(name)}=${percentEncode(value)}`
      }
    })
  return fc
    .tuple(fc.array(field, { maxLength: 8 }), fc.constantFrom('&', '&', '&&', ';'))
    .map(([fields, separator]) => fields.join(separator))
}

const MUTATIONS = [
  'none',
  'none',
  'none',
  'none',
  'slash',
  'case',
  'double',
  'append',
  'replace',
  'escape',
  'newline',
] as const

/** Escapes Python's `unquote` takes in its stride (U+FFFD, or the `%` as is) and `decodeURIComponent` refuses. */
const NOT_DECODABLE = new Set(['%', '%2', '%zz', '%FF', '%ED%A0%80'])

/**
 * A path: one of the three operations', often as is, sometimes mangled the ways clients and
 * proxies mangle paths. `utf8Only` leaves out escapes `decodeURIComponent` refuses (see the in-process fuzz).
 */
export const apiPath = (ids: Ids, utf8Only = false) =>
  fc
    .tuple(
      fc.oneof(
        fc.constant(['/v1/personas/', 'GET'] as const),
        uuidLike(ids.dimensions).map((id) => [`/v1/demographics/${percentEncode(id)}/values/bulk`, 'POST'] as const),
        uuidLike(ids.policies).map((id) => [`/v1/policies/${percentEncode(id)}/rules`, 'GET'] as const),
      ),
      fc.constantFrom(...MUTATIONS),
      fc.nat(),
      fc.oneof(
        fc.constantFrom(...TRICKY.filter((text) => !utf8Only || !NOT_DECODABLE.has(text))),
        anyText(6).map(percentEncode),
      ),
    )
    .map(([[path, method], mutation, position, segment]) => {
      const parts = path.split('/')
      const at = 1 + (position % (parts.length - 1))
      switch (mutation) {
        case 'slash':
          return [path.endsWith('/') ? path.slice(0, -1) : `${path}/`, method] as const
        case 'case':
          return [parts.map((part, i) => (i === at ? part.toUpperCase() : part)).join('/'), method] as const
        case 'double':
          return [parts.map((part, i) => (i === at ? `/${part}` : part)).join('/'), method] as const
        case 'append':
          return [`${path}${path.endsWith('/') ? '' : '/'}${segment}`, method] as const
        case 'replace':
          return [parts.map((part, i) => (i === at ? segment : part)).join('/'), method] as const
        case 'escape':
          return [path.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`), method] as const
        case 'newline':
          return [`${path}%0A`, method] as const
        default:
          return [path, method] as const
      }
    })

/** Printable ASCII: what a header value may hold (fetch refuses controls and non-Latin-1). */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 40,
})

/** Authorization headers: valid tokens of every role, expired ones, other schemes and spellings, garbage. */
export const authorization = (tokens: readonly string[]) =>
  fc.option(
    fc.oneof(
      { arbitrary: fc.constantFrom(...tokens).map((token) => `Bearer ${token}`), weight: 10 },
      fc
        .tuple(
          fc.constantFrom('bearer ', 'BEARER ', 'Bearer  ', 'Basic ', 'Bearer', '', 'Token ', 'Bearer\t'),
          fc.constantFrom(...tokens),
        )
        .map(([scheme, token]) => `${scheme}${token}`),
      fc
        .tuple(fc.constantFrom(...tokens), fc.nat(), headerText)
        .map(([token, at, junk]) => `Bearer ${token.slice(0, at % token.length)}${junk}`),
      headerText,
    ),
    { freq: 10 },
  )

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'json',
  'application/json;',
  'application/json/x',
]

/** Raw JSON a serialiser would never write: non-finite numbers, huge integers, lone surrogates. */
const RAW_TOKENS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '-0',
  '1.0',
  '1E2',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '9'.repeat(4301),
  '0.1e-400',
  'true',
]
const RAW = (index: number) => `\u0000raw:${index}`
const withRawTokens = (json: string) =>
  json.replace(/"\\u0000raw:(\d+)"/g, (_, index: string) => RAW_TOKENS[Number(index)]!)

const rawToken = fc.nat({ max: RAW_TOKENS.length - 1 }).map(RAW)
const jsonish = fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 4 }, rawToken)
/** Metadata keys, the ones that pollute careless JS objects among them. */
const metadataKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '10', ''),
  fc.string({ maxLength: 8 }),
)
const VALUE_POOL = ['a', 'b', 'c', 'A', 'é', 'e\u0301', '😀', ' a', 'a ', '__proto__', 'constructor']

/** A validly shaped field most of the time (so that some requests get through to the write), an odd one otherwise. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: odd, weight: 1 })

const item = fc.record(
  {
    value: mostly(
      fc.oneof(fc.constantFrom(...VALUE_POOL), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })),
      fc.oneof(anyText(), fc.constant(''), fc.constant('x'.repeat(256)), jsonish),
    ),
    display_name: mostly(
      fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constant(null)),
      fc.oneof(anyText(), jsonish),
    ),
    metadata: mostly(
      fc.dictionary(metadataKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.oneof(fc.dictionary(metadataKey, jsonish, { maxKeys: 4 }), jsonish),
    ),
    sort_order: mostly(fc.oneof(fc.integer(), fc.constant(null)), fc.oneof(fc.double(), intText, rawToken, jsonish)),
  },
  { requiredKeys: ['value'] },
)

/** A bulk-add body: mostly well formed, often with one odd field, sometimes broken or not JSON at all. */
export const body = fc.oneof(
  {
    arbitrary: fc
      .record({ values: fc.array(item, { maxLength: 4 }) }, { requiredKeys: [] })
      .map((value) => withRawTokens(JSON.stringify(value))),
    weight: 8,
  },
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .tuple(
      fc.record({ values: fc.array(item, { maxLength: 3 }) }).map((value) => withRawTokens(JSON.stringify(value))),
      fc.nat(),
    )
    .map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
  fc
    .integer({ min: 1, max: 1500 })
    .map((depth) => `{"values":[{"value":"deep","metadata":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}]}`),
  fc.constantFrom(
    '',
    'null',
    '{}',
    '{"values":[],"values":[{"value":"twice"}]}',
    '{"values":[{"value":"a"}]} trailing',
    '\ufeff{"values":[]}',
    '{"values":[{"value":"a"},]}',
  ),
  fc.uint8Array({ maxLength: 48 }),
)

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

/** Any request to the API: path, query, method, headers and body, each plausible or not. */
export const apiRequest = (ids: Ids, tokens: readonly string[], options: { utf8PathsOnly?: boolean } = {}) =>
  fc
    .tuple(
      apiPath(ids, options.utf8PathsOnly),
      fc.option(queryString(ids), { freq: 3 }),
      fc.nat({ max: 5 }),
      fc.constantFrom(...METHODS),
      authorization(tokens),
      fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4 }),
      body,
      fc.array(fc.tuple(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), headerText), { maxLength: 2 }),
    )
    .map(([[path, ownMethod], query, methodDraw, anyMethod, auth, contentType, payload, extra]): FuzzRequest => {
      const method = methodDraw === 0 ? anyMethod : ownMethod
      const headers: Record<string, string> = Object.fromEntries(extra)
      if (auth !== null) headers.authorization = auth
      if (contentType !== null) headers['content-type'] = contentType
      const hasBody = method !== 'GET' && method !== 'HEAD'
      return {
        method,
        target: query === null ? path : `${path}?${query}`,
        headers,
        ...(hasBody ? { body: payload } : {}),
      }
    })

/** A request as one line, for failure messages. */
export const describe = (request: FuzzRequest): string =>
  `${request.method} ${request.target} ${JSON.stringify(request.headers)} ${request.body === undefined ? '' : typeof request.body === 'string' ? request.body.slice(0, 200) : `[${request.body.length} bytes]`}`
