import { it, expect } from 'vitest'
import { parseLaxInt } from '../../fastapi/python/lax-int.js'
import { QueryParams, parseQueryString } from '../../fastapi/http/query-string.js'
import { pathFromUrlPath, quote, quoteForLocation, redirectLocation, unquote } from '../../fastapi/python/url-quote.js'

// Expected values: fastapi-behaviour.md §3, §5 and §10, and CPython 3.11.7's urllib.parse
// (parse_qsl, unquote, quote) run on each case.

// ---- parse_qsl(keep_blank_values=True) ---------------------------------------------------

it.each<[string, Array<[string, string]>]>([
  [
    'a=1&&b',
    [
      ['a', '1'],
      ['b', ''],
    ],
  ],
  ['a', [['a', '']]],
  ['%zz', [['%zz', '']]],
  ['q=%C3%A9', [['q', 'é']]],
  ['q=%c3%a9', [['q', 'é']]],
  ['%FF', [['\ufffd', '']]],
  ['+', [[' ', '']]],
  ['a=1+2', [['a', '1 2']]],
  ['a=%2B5', [['a', '+5']]],
  ['a=b=c', [['a', 'b=c']]],
  ['', []],
  ['&', []],
  ['=', [['', '']]],
  ['a=1;b=2', [['a', '1;b=2']]],
  ['a=%0A', [['a', '\n']]],
  ['x=%2', [['x', '%2']]],
  ['x=%', [['x', '%']]],
])('parses the query %j like parse_qsl', (query, pairs) => {
  expect(parseQueryString(query)).toEqual(pairs)
})

it('replaces bad UTF-8 the way Python does', () => {
  expect(parseQueryString('x=%ED%A0%80')).toEqual([['x', '\ufffd\ufffd\ufffd']])
  expect(parseQueryString('x=%E2%82')).toEqual([['x', '\ufffd']])
  expect(parseQueryString('x=%F0%9F%98')).toEqual([['x', '\ufffd']])
  expect(parseQueryString('x=%C3')).toEqual([['x', '\ufffd']])
})

it('keeps a decoded byte order mark', () => {
  expect(parseQueryString('%EF%BB%BFa')).toEqual([['\ufeffa', '']])
})

it('reads a raw non-ASCII query as latin-1 bytes, like Starlette', () => {
  expect(parseQueryString('q=é')).toEqual([['q', 'Ã©']])
})

it.each([
  ['limit=0', '0'],
  ['limit=%205', ' 5'],
  ['limit=+5', ' 5'],
  ['limit=%2B5', '+5'],
  ['limit=', ''],
  ['limit', ''],
])('gives the scalar param in %j as %j', (query, value) => {
  expect(new QueryParams(query).get('limit')).toBe(value)
})

it('turns a plus into a space that the int validator then trims', () => {
  const limit = new QueryParams('limit=+5').get('limit') ?? ''
  expect(parseLaxInt(limit)).toEqual({ ok: true, value: 5n })
  expect(parseLaxInt(new QueryParams('limit=%2B5').get('limit') ?? '')).toEqual({ ok: true, value: 5n })
})

it('lets the last value win for a scalar param', () => {
  expect(new QueryParams('limit=5&limit=7').get('limit')).toBe('7')
  expect(new QueryParams('limit=abc&limit=7').get('limit')).toBe('7')
})

it('collects every value of a list param in order', () => {
  const params = new QueryParams('intents=a&limit=1&intents=b')
  expect(params.getAll('intents')).toEqual(['a', 'b'])
  expect(params.entries()).toEqual([
    ['intents', 'a'],
    ['limit', '1'],
    ['intents', 'b'],
  ])
})

it('keeps an empty list item and does not split on commas', () => {
  expect(new QueryParams('intents=').getAll('intents')).toEqual([''])
  expect(new QueryParams('intents=a,b').getAll('intents')).toEqual(['a,b'])
})

it('treats a blank param as present and an absent one as missing', () => {
  const params = new QueryParams('search=&flag')
  expect(params.has('search')).toBe(true)
  expect(params.get('search')).toBe('')
  expect(params.has('flag')).toBe(true)
  expect(params.get('flag')).toBe('')
  expect(params.has('limit')).toBe(false)
  expect(params.get('limit')).toBeUndefined()
  expect(params.getAll('limit')).toEqual([])
})

it('decodes names as well as values', () => {
  expect(new QueryParams('team%5Fid=x&a+b=1').entries()).toEqual([
    ['team_id', 'x'],
    ['a b', '1'],
  ])
})

// ---- unquote and uvicorn's scope["path"] -------------------------------------------------

it.each([
  ['/v1/caf%C3%A9', '/v1/café'],
  ['/a%2Fb', '/a/b'],
  ['/a%zz', '/a%zz'],
  ['/%FF', '/\ufffd'],
  ['/a+b', '/a+b'],
  ['/%25', '/%'],
  ['/%2541', '/%41'],
  ['/%7e', '/~'],
  ['/caf%C3%A9%FF', '/café\ufffd'],
  ['/v1/personas/', '/v1/personas/'],
])('turns the raw path %j into the scope path %j', (raw, path) => {
  expect(pathFromUrlPath(raw)).toBe(path)
})

it('decodes only the ASCII runs of a string, each on its own', () => {
  // `%C3` and `%A9` sit in different ASCII runs, so neither completes a character.
  expect(unquote('%C3é%A9')).toBe('\ufffdé\ufffd')
  expect(unquote('é')).toBe('é')
})

// ---- quote and the redirect Location -----------------------------------------------------

it.each([
  ['http://testserver/v1/personas/?limit=5&intents=a%20b', 'http://testserver/v1/personas/?limit=5&intents=a%20b'],
  ['http://h/a b', 'http://h/a%20b'],
  ['http://h/é', 'http://h/%C3%A9'],
  ['http://h/{x}', 'http://h/%7Bx%7D'],
  ['http://h/"', 'http://h/%22'],
  ['http://h/~+%', 'http://h/~+%'],
  ['http://h/^|\\<>`', 'http://h/%5E%7C%5C%3C%3E%60'],
  ["http://h/?q=it's", "http://h/?q=it's"],
  ['http://h/#f', 'http://h/#f'],
  ['', ''],
])('quotes %j for Location as %j', (url, location) => {
  expect(quoteForLocation(url)).toBe(location)
})

it('quotes with "/" as the only extra safe character by default', () => {
  expect(quote('a b/é?')).toBe('a%20b/%C3%A9%3F')
  expect(quote('😀\u0000\u007f', '')).toBe('%F0%9F%98%80%00%7F')
})

it('redirects a path without its slash to the route with one, keeping the raw query', () => {
  const request = new URL('http://testserver/v1/personas?limit=5&intents=a%20b')
  expect(redirectLocation(request, '/v1/personas/')).toBe('http://testserver/v1/personas/?limit=5&intents=a%20b')
})

it('leaves out the question mark when there is no query', () => {
  expect(redirectLocation(new URL('http://testserver/v1/personas'), '/v1/personas/')).toBe(
    'http://testserver/v1/personas/',
  )
  expect(redirectLocation(new URL('http://testserver/v1/personas?'), '/v1/personas/')).toBe(
    'http://testserver/v1/personas/',
  )
})

it('redirects an extra trailing slash away', () => {
  const id = '0b6f0f8e-7b1a-4c1e-9a4e-1f2d3c4b5a69'
  const request = new URL(`http://testserver/v1/demographics/${id}/values/bulk/`)
  expect(redirectLocation(request, `/v1/demographics/${id}/values/bulk`)).toBe(
    `http://testserver/v1/demographics/${id}/values/bulk`,
  )
})

it('keeps the port and scheme of the request', () => {
  expect(redirectLocation(new URL('http://localhost:8000/x'), '/x/')).toBe('http://localhost:8000/x/')
  expect(redirectLocation(new URL('https://api.example.com/x'), '/x/')).toBe('https://api.example.com/x/')
  expect(redirectLocation(new URL('http://[::1]:3000/x'), '/x/')).toBe('http://[::1]:3000/x/')
})

it('re-encodes the decoded path and the characters a URL leaves raw in the query', () => {
  const request = new URL('http://h/caf%C3%A9?a={b}|^&c=%FF')
  expect(redirectLocation(request, `${pathFromUrlPath(request.pathname)}/`)).toBe(
    'http://h/caf%C3%A9/?a=%7Bb%7D%7C%5E&c=%FF',
  )
})

it('loses an encoded slash or percent in the path, as Starlette does', () => {
  const slash = new URL('http://h/a%2Fb')
  expect(redirectLocation(slash, `${pathFromUrlPath(slash.pathname)}/`)).toBe('http://h/a/b/')
  const percent = new URL('http://h/a%25b')
  expect(redirectLocation(percent, `${pathFromUrlPath(percent.pathname)}/`)).toBe('http://h/a%b/')
})
