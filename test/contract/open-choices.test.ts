/**
 * verify against the variants of test/contract/variants/open-choices.ts, after real FastAPI servers that choose
 * freely where the description says "not shown": correct ones fail nothing (a warning says what the mock does
 * instead), broken ones fail the check meant for them.
 */
import { expect, it } from 'vitest'
import { checkOf, evidenceOf, failedIds, reportOn, warningsOf } from './support/reports.js'
import * as open from './variants/open-choices.js'

const TIMEOUT = 30_000

const [check, failed, warnings, evidence] = [checkOf, failedIds, warningsOf, evidenceOf]

/** verify's report on the mock answering through `handlers`. */

/** A mock that refuses duplicates (409, nothing added): the variants answer that refusal their own way. */
const REJECTS = { bulkDuplicates: 'reject' } as const

it('takes a duplicate refused with 400, nothing added, as reject, and warns that the mock answers 409', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.duplicatesRefusedWith400(), { profile: REJECTS })
  expect(failed(report)).toEqual([])
  expect(report.profile.settings.bulkDuplicates).toBe('reject')
  expect(warnings(report, 'bulk.duplicates')).toMatch(
    /the duplicates refused with 400 \{"detail":"Value already exists: [^"]*-duplicate-old"\}; under bulkDuplicates: 'reject' the mock answers 409 with \{"detail": "\.\.\."\} \(a choice: .*no profile setting changes the status\)/,
  )
})

it('takes a duplicate refused with a 422 validation body, nothing added, as reject, with the same warning', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.duplicatesRefusedWith422(), { profile: REJECTS })
  expect(failed(report)).toEqual([])
  expect(report.profile.settings.bulkDuplicates).toBe('reject')
  expect(warnings(report, 'bulk.duplicates')).toMatch(
    /the duplicates refused with 422 \{"detail":\[\{"loc":\["body","values",0,"value"\].*the mock answers 409 with \{"detail": "\.\.\."\}/,
  )
})

it('fails a refusal of a duplicate that still stored the new values, whether 409 or 400', {
  timeout: 2 * TIMEOUT,
}, async () => {
  for (const status of [409, 400] as const) {
    const report = await reportOn(open.freshStoredDespiteRefusal(status), { profile: REJECTS })
    expect(failed(report), `refused with ${status}`).toEqual(['bulk.duplicates'])
    expect(evidence(report, 'bulk.duplicates')).toMatch(/-duplicate-new once: the refused POST [^ ]+ added nothing/)
  }
})

it('reads a persona field left out (exclude_unset) as its documented default in the filters', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.excludeUnset())
  expect(failed(report)).toEqual([])
  for (const id of ['filters.intents', 'filters.is-preset', 'filters.combined'])
    expect(check(report, id).status, id).toBe('passed')
  expect(warnings(report, 'schema.persona-list')).toMatch(
    /results\[\]\.(intent|is_preset): missing field, which the description leaves optional/,
  )
})

it('fails a persona of another intent listed under intents=benign, though the benign ones leave intent out', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.otherIntentListedAsBenign())
  expect(failed(report)).toEqual(['filters.intents'])
  expect(evidence(report, 'filters.intents')).toMatch(/intents=benign.*"got":"1 that do not match/)
})
