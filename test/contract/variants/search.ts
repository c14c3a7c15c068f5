import { HttpResponse, type RequestHandler } from 'msw'
import { forward, numberParam, override, PERSONAS, realAnswer, setParams, type Json } from '../support/variant.js'

/**
 * Variants of the persona list's `search`, after real FastAPI servers. The description says only that it "matches
 * against name, description and role": correct servers match case-sensitively, by whole word or by word prefix
 * (the mock's case-insensitive substring is its own choice, decisions.md); broken ones ignore the search, search
 * another field, or miss a record holding the very word they were given.
 */

const SEARCHED = ['name', 'description', 'role'] as const

/** Words as a full-text index or a regex `\W` split sees them. */
const wordsOf = (value: string) => value.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
const fieldText = (persona: Json, field: string) => String(persona[field] ?? '')

/** Correct: `LIKE '%' || :search || '%'` on Postgres, case-sensitive. */
export const caseSensitiveSearch = (): RequestHandler[] => [
  searchingWith((persona, search) => SEARCHED.some((field) => fieldText(persona, field).includes(search))),
]

/** Correct: full-text search, whole words in any case. */
export const wholeWordSearch = (): RequestHandler[] => [
  searchingWith((persona, search) =>
    SEARCHED.some((field) => wordsOf(fieldText(persona, field).toLowerCase()).includes(search.toLowerCase())),
  ),
]

/** Correct: a typeahead, matching the start of any word in any case. */
export const wordPrefixSearch = (): RequestHandler[] => [
  searchingWith((persona, search) =>
    SEARCHED.some((field) =>
      wordsOf(fieldText(persona, field).toLowerCase()).some((word) => word.startsWith(search.toLowerCase())),
    ),
  ),
]

/** Broken: `search` declared but never applied: every persona of the team is listed. */
export const searchIgnored = (): RequestHandler[] => [
  override('get', PERSONAS, (request) =>
    new URL(request.url).searchParams.has('search')
      ? forward(request, { url: (url) => setParams(url, { search: null }) })
      : undefined,
  ),
]

/** Broken: search reads the tags instead of name, description and role. */
export const searchTagsOnly = (): RequestHandler[] => [
  searchingWith((persona, search) =>
    (Array.isArray(persona.tags) ? persona.tags : []).some((tag: string) =>
      tag.toLowerCase().includes(search.toLowerCase()),
    ),
  ),
]

/** Broken: `ILIKE :search || '%'`: only the start of a field matches, so a word in the middle finds nothing. */
export const searchFieldStart = (): RequestHandler[] => [
  searchingWith((persona, search) =>
    SEARCHED.some((field) => fieldText(persona, field).toLowerCase().startsWith(search.toLowerCase())),
  ),
]

/** Broken: the records are lower-cased, the term is not: a word with a capital, as written, finds nothing. */
export const searchLowerCasesRecordsOnly = (): RequestHandler[] => [
  searchingWith((persona, search) =>
    SEARCHED.some((field) => fieldText(persona, field).toLowerCase().includes(search)),
  ),
]

/**
 * A persona list whose search is `matches`, over every persona of the team, then paged as asked (the other filters
 * applied by the mock first). Refusals and lists without a search are the mock's own.
 */
function searchingWith(matches: (persona: Json, search: string) => boolean): RequestHandler {
  return override('get', PERSONAS, async (request) => {
    const search = new URL(request.url).searchParams.get('search')
    if (!search) return undefined
    // What the mock refuses (a limit out of range, another team), the variant refuses the same way.
    const own = await forward(request)
    if (own.status !== 200) return own
    const all = await realAnswer(request, {
      url: (url) => setParams(url, { search: null, offset: null, limit: '100' }),
    })
    if (all.status !== 200) return forward(request)
    const results = all.body.results.filter((persona: Json) => matches(persona, search))
    const offset = numberParam(request, 'offset', 0)
    return HttpResponse.json({
      results: results.slice(offset, offset + numberParam(request, 'limit', 10)),
      total: results.length,
    })
  })
}
