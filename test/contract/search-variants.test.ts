/**
 * verify against the search variants of test/contract/variants/search.ts, after real FastAPI servers. The
 * description says only that search "matches against name, description and role": a server that matches
 * case-sensitively, by whole word or by word prefix is correct (a warning names its reading), one that ignores
 * the search, searches another field, or misses a record holding the very word it was given fails.
 */
import { expect, it } from 'vitest'
import type { Report } from '../../verify/index.js'
import { checkOf, evidenceOf, failedIds, reportOn, warningsOf } from './support/reports.js'
import * as search from './variants/search.js'

const TIMEOUT = 30_000
const SEARCH_CHECKS = ['filters.combined', 'filters.search-fields']

const [_check, warnings, evidence] = [checkOf, warningsOf, evidenceOf]
const failed = (report: Report) => failedIds(report).sort()

/** verify's report on the mock answering through `handlers`. */

/** The warning's tail: what the mock does, and that no profile setting aligns it. */
const MOCK_READING =
  /; the mock matches case-insensitive substrings \(decisions\.md\), which no profile setting changes \(search=\S+ found \d+, the mock's reading \d+\)/

it.each([
  ['case-sensitively', search.caseSensitiveSearch, 'case-sensitive substrings'],
  ['whole words', search.wholeWordSearch, 'whole words, ignoring case'],
  ['word prefixes', search.wordPrefixSearch, 'word prefixes, ignoring case'],
])('passes a search matching %s, and warns what it matches', { timeout: TIMEOUT }, async (_, handlers, reading) => {
  const report = await reportOn(handlers())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'filters.search-fields')).toMatch(
    new RegExp(`^search matches ${reading}${MOCK_READING.source}$`),
  )
})

it('gives the mock itself no warning on search', { timeout: TIMEOUT }, async () => {
  const report = await reportOn([])
  expect(failed(report)).toEqual([])
  for (const id of SEARCH_CHECKS) expect(warnings(report, id)).toBe('')
})

it('fails a search that is ignored: it returns personas without the term', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(search.searchIgnored())
  expect(failed(report)).toEqual(SEARCH_CHECKS)
  expect(evidence(report, 'filters.search-fields')).toMatch(/"got":"\d+ that do not match/)
  for (const id of SEARCH_CHECKS) expect(warnings(report, id)).toBe('')
})

it('fails a search of the tags instead of name, description and role', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(search.searchTagsOnly())
  expect(failed(report)).toEqual(SEARCH_CHECKS)
  const found = evidence(report, 'filters.search-fields')
  expect(found).toMatch(
    /holding \\"\w+\\" as a whole word, as written \(every reading finds them\)","got":"\d+ missing/,
  )
  // A word of the tags no searched field holds: the server finds the personas it tags.
  expect(found).toMatch(/search=churn&.*"got":"\d+ that do not match/)
})

it('fails a search that misses a persona holding the very word it was given', { timeout: TIMEOUT }, async () => {
  // `ILIKE :search || '%'`: a word in the middle of a field is not found.
  const fieldStart = await reportOn(search.searchFieldStart())
  expect(failed(fieldStart)).toEqual(SEARCH_CHECKS)
  expect(evidence(fieldStart, 'filters.search-fields')).toMatch(/as a whole word, as written .*"got":"\d+ missing/)
  // The records lower-cased, the term not: a word with a capital finds nothing.
  const lowerCased = await reportOn(search.searchLowerCasesRecordsOnly())
  expect(failed(lowerCased)).toEqual(SEARCH_CHECKS)
  expect(evidence(lowerCased, 'filters.combined')).toMatch(/holding \\"[A-Z]\w+\\" as a whole word.*"got":"1 missing/)
})
