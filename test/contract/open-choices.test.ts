/**
 * verify against the variants of test/contract/variants/open-choices.ts, after real FastAPI servers that choose
 * freely where the description says "not shown": correct ones fail nothing (a warning says what the mock does
 * instead), broken ones fail the check meant for them.
 */
import { expect, it } from 'vitest'
import { verify, type CheckResult, type Report } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import * as open from './variants/open-choices.js'

const TIMEOUT = 30_000

type MockOptions = NonNullable<Parameters<typeof startMock>[0]>

const check = (report: Report, id: string): CheckResult => report.checks.find((result) => result.id === id)!
const failed = (report: Report) =>
  report.checks.filter((result) => result.status === 'failed').map((result) => result.id)
const warnings = (report: Report, id: string) => check(report, id).warnings.join('\n')
const evidence = (report: Report, id: string) => JSON.stringify(check(report, id).evidence)

/** verify's report on the mock answering through `handlers`. */
async function reportOn(handlers: MockOptions['handlers'], profile?: MockOptions['profile']): Promise<Report> {
  const running = await startMock({ handlers, ...(profile ? { profile } : {}) })
  try {
    return await verify(verifyOptionsFor(running))
  } finally {
    await running.close()
  }
}

/** A mock that refuses duplicates (409, nothing added): the variants answer that refusal their own way. */
const REJECTS = { bulkDuplicates: 'reject' } as const

it('takes a duplicate refused with 400, nothing added, as reject, and warns that the mock answers 409', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.duplicatesRefusedWith400(), REJECTS)
  expect(failed(report)).toEqual([])
  expect(report.profile.settings.bulkDuplicates).toBe('reject')
  expect(warnings(report, 'bulk.duplicates')).toMatch(
    /the duplicates refused with 400 \{"detail":"Value already exists: [^"]*-duplicate-old"\}; under bulkDuplicates: 'reject' the mock answers 409 with \{"detail": "\.\.\."\} \(a choice: .*no profile setting changes the status\)/,
  )
})

it('takes a duplicate refused with a 422 validation body, nothing added, as reject, with the same warning', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(open.duplicatesRefusedWith422(), REJECTS)
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
    const report = await reportOn(open.freshStoredDespiteRefusal(status), REJECTS)
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
