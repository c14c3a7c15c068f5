import { listPersonas } from '../client/api.js'
import type { CheckScope } from './check.js'
import type { VerifyContext } from '../context.js'
import { crawl, idsOf, isUuid, type Crawl, type Json } from '../client/crawl.js'
import { describeIdDifference, mismatch } from './expectations.js'
import { describeRequest, type QueryValue } from '../client/http.js'
import { partialNote, readingPages } from './reference-sets.js'
import { personaField } from '../schema/persona-defaults.js'

/** How the filter checks compare a filtered list with the unfiltered one, and find terms to search for. */

type Query = Record<string, QueryValue>
export type Predicate = (record: Json) => boolean

export const SEARCH_FIELDS = ['name', 'description', 'role'] as const
export const INTENTS = ['benign', 'curious', 'adversarial', 'malicious']

/**
 * A filtered query returns exactly the records of the unfiltered set that match: cross-checked
 * record by record when both sets could be read whole, and record by record for the match alone
 * when they could not.
 */
export async function expectExactly(
  scope: CheckScope,
  reference: Crawl,
  query: Query,
  matches: Predicate,
): Promise<void> {
  const { ctx } = scope
  const filtered = await crawlFiltered(ctx, reference, query)
  if (filtered.problem) return scope.fail(filtered.problem)
  const first = filtered.pages[0]!
  const sent = first.answer.request
  const request = describeRequest(sent)
  const strangers = filtered.records.filter((record) => !matches(record))
  const strangerIds = idsOf(strangers).slice(0, 3).join(', ')
  scope.expect(strangers.length === 0, {
    request,
    expected: 'only matching records',
    got: `${strangers.length} that do not match (${strangerIds})`,
    sent,
  })
  if (!reference.complete || !filtered.complete) return scope.note(partialNote(request, filtered))
  const expected = idsOf(reference.records.filter(matches))
  scope.expect(
    first.page.total === expected.length,
    mismatch(
      first.answer,
      `total ${expected.length}: the matching records of the unfiltered set`,
      `total ${first.page.total}`,
    ),
  )
  const got = idsOf(filtered.records)
  const same = got.length === expected.length && expected.every((id) => got.includes(id))
  scope.expect(same, {
    request,
    expected: `the ${expected.length} matching records of the unfiltered set`,
    got: describeIdDifference(expected, got),
    sent,
  })
}

export const text = (record: Json, field: string) =>
  typeof record[field] === 'string' ? (record[field] as string) : ''

/**
 * A persona's intent: a record without one has the default the description gives (benign), as a server using
 * `response_model_exclude_unset` leaves it out; one that is not a string is none ('').
 */
export const intentOf = (record: Json): string => {
  const intent = personaField(record, 'intent')
  return typeof intent === 'string' ? intent : ''
}

/** The personas with one of `intents` (the `intents` filter), reading a left-out intent as its default. */
export const intentIn =
  (intents: readonly unknown[]): Predicate =>
  (record) =>
    intents.includes(intentOf(record))

/** The personas whose is_preset is `isPreset` (the `is_preset` filter), reading a left-out one as its default, false. */
export const presetIs =
  (isPreset: boolean): Predicate =>
  (record) =>
    personaField(record, 'is_preset') === isPreset

/**
 * Soundness, as the description states it: "matches against name, description and role". However a server
 * matches (case, substring, word or prefix), a record it returns holds the term in one of those fields, at least
 * as a case-insensitive substring. This is also the mock's own reading (decisions.md).
 */
export const searchMatches =
  (term: string): Predicate =>
  (record) =>
    SEARCH_FIELDS.some((field) => text(record, field).toLowerCase().includes(term.toLowerCase()))

/** Words as a full-text index sees them: letters and digits of any script, split by anything else. */
const wordsOf = (value: string) => value.split(/[^\p{L}\p{N}]+/u).filter(Boolean)

/** One way a server may match a search term against a field's text; the description leaves the way open. */
interface SearchReading {
  name: string
  holds: (value: string, term: string) => boolean
}

const caseless =
  (holds: SearchReading['holds']): SearchReading['holds'] =>
  (value, term) =>
    holds(value.toLowerCase(), term.toLowerCase())
const substring: SearchReading['holds'] = (value, term) => value.includes(term)
const wholeWord: SearchReading['holds'] = (value, term) => wordsOf(value).includes(term)
const wordPrefix: SearchReading['holds'] = (value, term) => wordsOf(value).some((word) => word.startsWith(term))

/** The mock's reading (decisions.md): the widest of them, so every other finds a subset of what it finds. */
const MOCK_READING: SearchReading = { name: 'case-insensitive substrings', holds: caseless(substring) }
/** The narrowest: a whole word in the same case. Every reasonable matching finds it, so every server must. */
const EXACT_WORDS: SearchReading = { name: 'whole words, case-sensitively', holds: wholeWord }
/** The narrower readings a correct server may have, named in the warning that tells which one it has. */
const NARROWER_READINGS: readonly SearchReading[] = [
  { name: 'case-sensitive substrings', holds: substring },
  { name: 'word prefixes, ignoring case', holds: caseless(wordPrefix) },
  { name: 'word prefixes, case-sensitively', holds: wordPrefix },
  { name: 'whole words, ignoring case', holds: caseless(wholeWord) },
  EXACT_WORDS,
]

const matchesBy =
  (reading: SearchReading, term: string): Predicate =>
  (record) =>
    SEARCH_FIELDS.some((field) => reading.holds(text(record, field), term))

/** What one search found, against the records that pass the query's other filters. */
interface SearchProbe {
  term: string
  candidates: readonly Json[]
  found: ReadonlySet<string>
}

const foundBy = (reading: SearchReading, probe: SearchProbe) =>
  idsOf(probe.candidates.filter(matchesBy(reading, probe.term)))
const explains = (reading: SearchReading, probe: SearchProbe) => {
  const ids = foundBy(reading, probe)
  return ids.length === probe.found.size && ids.every((id) => probe.found.has(id))
}

/**
 * The searches of one check, read together: where the server found fewer records than the mock's reading, one
 * warning names the narrower readings that explain every answer (a single answer seldom tells them apart).
 */
export class SearchReadings {
  private readonly probes: SearchProbe[] = []

  observe(probe: SearchProbe): void {
    this.probes.push(probe)
  }

  warnIfNarrower(scope: CheckScope): void {
    // A server that failed a search is not reading it another way: its failures say what is wrong.
    if (scope.evidence.length > 0) return
    const narrower = this.probes.find((probe) => foundBy(MOCK_READING, probe).some((id) => !probe.found.has(id)))
    if (!narrower) return
    const names = NARROWER_READINGS.filter((reading) => this.probes.every((probe) => explains(reading, probe))).map(
      (reading) => reading.name,
    )
    const what = names.length ? `search matches ${names.join(' or ')}` : 'search finds fewer personas than the mock'
    const example = `search=${narrower.term} found ${narrower.found.size}, the mock's reading ${foundBy(MOCK_READING, narrower).length}`
    scope.warn(
      `${what}; the mock matches ${MOCK_READING.name} (decisions.md), which no profile setting changes (${example})`,
    )
  }
}

/** A search, and the filters it is sent with. `alsoMatches` is what those other filters keep. */
export interface Search {
  term: string
  query?: Query
  alsoMatches?: Predicate
}

/**
 * A search is judged between two readings, since the description does not say how it matches: every record
 * returned holds the term in name, description or role in any case (soundness, whatever the matching), and every
 * record holding it as a whole word in the same case is returned (every reading finds those). What lies between is
 * the server's own reading: observed, for the warning that names it.
 */
export async function expectSearch(
  scope: CheckScope,
  reference: Crawl,
  search: Search,
  readings: SearchReadings,
): Promise<void> {
  const { ctx } = scope
  const alsoMatches = search.alsoMatches ?? (() => true)
  const filtered = await crawlFiltered(ctx, reference, { ...search.query, search: search.term })
  if (filtered.problem) return scope.fail(filtered.problem)
  const first = filtered.pages[0]!
  const sent = first.answer.request
  const request = describeRequest(sent)
  const strangers = filtered.records.filter((record) => !(alsoMatches(record) && searchMatches(search.term)(record)))
  scope.expect(strangers.length === 0, {
    request,
    expected: `only matching records, holding "${search.term}" in name, description or role (in any case)`,
    got: `${strangers.length} that do not match (${idsOf(strangers).slice(0, 3).join(', ')})`,
    sent,
  })
  if (!reference.complete || !filtered.complete) return scope.note(partialNote(request, filtered))
  const found = idsOf(filtered.records)
  scope.expect(
    first.page.total === found.length,
    mismatch(first.answer, `total ${found.length}: the records the search returned`, `total ${first.page.total}`),
  )
  const known = new Set(idsOf(reference.records))
  const unknown = found.filter((id) => !known.has(id))
  scope.expect(unknown.length === 0, {
    request,
    expected: 'only records of the unfiltered set',
    got: `${unknown.length} not in it (${named(unknown)})`,
    sent,
  })
  const candidates = reference.records.filter(alsoMatches)
  const exact = idsOf(candidates.filter(matchesBy(EXACT_WORDS, search.term)))
  const missed = exact.filter((id) => !found.includes(id))
  scope.expect(missed.length === 0, {
    request,
    expected: `${countedRecords(exact.length, 'matching')} holding "${search.term}" as a whole word, as written (every reading finds ${exact.length === 1 ? 'it' : 'them'})`,
    got: `${missed.length} missing (${named(missed)})`,
    sent,
  })
  readings.observe({ term: search.term, candidates, found: new Set(found) })
}

const countedRecords = (count: number, what: string) =>
  `${count === 1 ? 'the' : `all ${count}`} ${what} record${count === 1 ? '' : 's'}`
const named = (ids: readonly string[]) => ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '')

/**
 * English stop words of five letters or more: full-text search (Postgres' `english` configuration) drops them, so
 * a correct server may find nothing for one.
 */
const STOP_WORDS = new Set(
  'about above after again against because before being below between could doing during further having herself himself itself myself other ourselves should their theirs themselves there these those through under until where which while would yours yourself yourselves'.split(
    ' ',
  ),
)

/** A word worth searching for: plain letters (no digits, no other script), five or more, not a stop word. */
const searchable = (word: string) => /^[A-Za-z]{5,}$/.test(word) && !STOP_WORDS.has(word.toLowerCase())

/**
 * A word of `field` as written, to search for: every reasonable matching finds the record it came from, and no
 * other searched field of that record holds it (in any case), so a server that ignores the field misses the record.
 * Preferred: a word with a capital (a server that lower-cases the records but not the term misses it) that does not
 * open its field (a server matching only the field's start misses it). `fewest`: before all that, a word the
 * fewest records hold.
 */
export function wordFor(
  records: readonly Json[],
  field: (typeof SEARCH_FIELDS)[number],
  { fewest = false } = {},
): { word: string; record: Json } | undefined {
  const held = new Map<string, number>()
  const holders = (word: string) => {
    if (!fewest) return 0
    if (!held.has(word)) held.set(word, records.filter(searchMatches(word)).length)
    return held.get(word)!
  }
  const candidates = records.flatMap((record) =>
    wordsOf(text(record, field))
      .map((word, at) => ({ word, record, rank: (at > 0 ? 2 : 0) + (/[A-Z]/.test(word) ? 1 : 0) }))
      .filter(({ word }) => searchable(word) && !heldElsewhere(record, field, word)),
  )
  const better = (one: (typeof candidates)[number], other: (typeof candidates)[number]) =>
    holders(one.word) - holders(other.word) || other.rank - one.rank
  const best = candidates.reduce<(typeof candidates)[number] | undefined>(
    (kept, candidate) => (kept && better(kept, candidate) <= 0 ? kept : candidate),
    undefined,
  )
  return best && { word: best.word, record: best.record }
}

const heldElsewhere = (record: Json, field: string, word: string) =>
  SEARCH_FIELDS.some((other) => other !== field && MOCK_READING.holds(text(record, other), word))

/**
 * Searches that tell the readings apart, made from a word as written: the word in the other case (case), cut short
 * at its end (prefixes) and at both ends (substrings). Each finds the word's record by the mock's reading.
 */
export function readingProbes(word: string): string[] {
  const otherCase = /[A-Z]/.test(word) ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1)
  return [otherCase, word.slice(0, -1), word.slice(1, -1)]
}

/**
 * Search terms taken from the text fields that are not searched (`role_description`, `knowledge_level`,
 * `preset_category`, `tags`, ...), one per field that yields one, `role_description` first: each a word as written
 * that no searched field of any record holds in any case, so the search must find nothing, and a server that also
 * searches that field finds the record it came from, however it matches. Ids, uuids and timestamps are not text a
 * user searches for.
 */
export function termsOutsideSearch(records: readonly Json[]): Array<{ term: string; field: string }> {
  const unsearched = (field: string) =>
    !(SEARCH_FIELDS as readonly string[]).includes(field) && field !== 'id' && !field.endsWith('_id')
  const fields = [...new Set(['role_description', ...records.flatMap((record) => Object.keys(record))])].filter(
    unsearched,
  )
  const terms: Array<{ term: string; field: string }> = []
  for (const field of fields) {
    const found = records
      .map((record) => textOrTags(record, field))
      .filter((value) => !isUuid(value))
      .flatMap(wordsOf)
      .filter(searchable)
      .find((term) => !records.some(searchMatches(term)))
    if (found && !terms.some((item) => item.term === found)) terms.push({ term: found, field })
  }
  return terms
}

/** A field's text, or its strings joined when it is a list of them (`tags`): both are text a search could read. */
function textOrTags(record: Json, field: string): string {
  const value = record[field]
  if (Array.isArray(value)) return value.filter((item) => typeof item === 'string').join(' ')
  return text(record, field)
}

/**
 * The personas a filtered query returns, read whole where the unfiltered reference was; without a whole reference
 * nothing can be cross-checked, and two pages show whether the records match.
 */
async function crawlFiltered(ctx: VerifyContext, reference: Crawl, query: Query): Promise<Crawl> {
  const { pageSize, maxPages } = await readingPages(ctx, 'personas')
  return crawl(ctx, (offset, limit) => listPersonas(ctx, { ...query, limit, offset }), {
    pageSize,
    maxPages: reference.complete ? maxPages : 2,
  })
}
