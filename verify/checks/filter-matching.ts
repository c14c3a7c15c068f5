import { listPersonas } from '../client/api.js'
import type { CheckScope } from './check.js'
import { crawl, idsOf, isUuid, type Crawl, type Json } from '../client/crawl.js'
import { describeIdDifference, mismatch } from './expectations.js'
import { describeRequest, type QueryValue } from '../client/http.js'
import { partialNote, readingPages } from './reference-sets.js'

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
  // Without a whole reference nothing can be cross-checked: two pages show whether the records match.
  const { pageSize, maxPages } = await readingPages(ctx, 'personas')
  const filtered = await crawl(ctx, (offset, limit) => listPersonas(ctx, { ...query, limit, offset }), {
    pageSize,
    maxPages: reference.complete ? maxPages : 2,
  })
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
export const searchMatches =
  (term: string): Predicate =>
  (record) =>
    SEARCH_FIELDS.some((field) => text(record, field).toLowerCase().includes(term.toLowerCase()))

/**
 * A search term that finds a record through `field` alone (no other searched field of that
 * record holds it), so a server that ignores the field misses at least that record. A middle
 * slice of a word, sent in upper case, also shows matching is by substring and case-insensitive.
 */
export function termFor(
  records: readonly Json[],
  field: (typeof SEARCH_FIELDS)[number],
): { term: string; record: Json } | undefined {
  for (const record of records) {
    for (const word of text(record, field).split(/[^A-Za-z0-9]+/)) {
      if (word.length < 5) continue
      const term = word.slice(1, Math.min(word.length, 6)).toUpperCase()
      const elsewhere = SEARCH_FIELDS.filter((other) => other !== field).some((other) =>
        text(record, other).toLowerCase().includes(term.toLowerCase()),
      )
      if (!elsewhere) return { term, record }
    }
  }
  return undefined
}

/**
 * Search terms taken from the text fields that are not searched (`role_description`, `knowledge_level`,
 * `preset_category`, ...), one per field that yields one, `role_description` first: each a word no searched field
 * of any record holds, so the search must find nothing, and a server that also searches that field finds the
 * record it came from. Ids, uuids and timestamps are not text a user searches for.
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
      .filter((record) => !isUuid(text(record, field)))
      .flatMap((record) => text(record, field).split(/[^A-Za-z0-9]+/))
      .filter((word) => word.length >= 5 && !/\d/.test(word))
      .map((word) => word.slice(1, Math.min(word.length, 6)).toUpperCase())
      .find((term) => !records.some(searchMatches(term)))
    if (found && !terms.some((item) => item.term === found)) terms.push({ term: found, field })
  }
  return terms
}
