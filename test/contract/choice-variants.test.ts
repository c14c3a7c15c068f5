/**
 * verify against correct servers that choose otherwise where the description is silent
 * (test/contract/variants/choices.ts): no failure, and each choice reported for what it is.
 */
import { beforeAll, expect, it } from 'vitest'
import type { Fixtures } from '../../factories/fixtures.js'
import { verify, type CheckResult, type Report } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import {
  bulkItemFieldsNotNullable,
  dimensionsCreatedOnTheFly,
  lenientBulkList,
  microsecondTimestamps,
  noDocument,
  openConstraintModel,
  optionalRuleFields,
  ownRefusals,
  UNGUESSED_RULES_PAGING,
} from './variants/choices.js'
import { TIGHTER_BOUNDS, tighterBulkBounds, UNDECLARED_BOUNDS, undeclaredBulkBounds } from './variants/bulk-bounds.js'
import type { Json } from './support/variant.js'

let fixtures: Fixtures
beforeAll(async () => {
  const probe = await startMock()
  fixtures = probe.sessions.primary.fixtures
  await probe.close()
})

const check = (report: Report, id: string): CheckResult => report.checks.find((result) => result.id === id)!
const failures = (report: Report) =>
  report.checks
    .filter((result) => result.status === 'failed')
    .map((result) => `${result.id}: ${JSON.stringify(result.evidence)}`)

it('writes nothing without --allow-writes to a server that creates a dimension on its first bulk add', async () => {
  const created: Json[] = []
  const running = await startMock({ handlers: dimensionsCreatedOnTheFly(fixtures, created) })
  try {
    const values = () => running.sessions.primary.world.values.all().length
    const before = values()
    const report = await verify(verifyOptionsFor(running, { allowWrites: false }))
    expect(created, 'no bulk add a correct server may take as a write').toEqual([])
    expect(values()).toBe(before)
    expect(failures(report)).toEqual([])
    for (const id of ['errors.unknown-dimension', 'validation.bulk-limits'])
      expect(check(report, id).reason, id).toMatch(/pass --allow-writes/)
  } finally {
    await running.close()
  }
})

it('reports a 201 to an unknown dimension as a choice, not a failure', async () => {
  const report = await reportWithoutFailure(dimensionsCreatedOnTheFly(fixtures, []))
  const unknown = check(report, 'errors.unknown-dimension')
  expect(unknown.status).toBe('passed')
  expect(unknown.warnings.join('\n')).toMatch(
    /answered 201: the server takes a dimension it did not know; the mock answers 404/,
  )
})

it('skips the rules paging checks, saying why, when the paging names were not seen', async () => {
  const running = await startMock({ profile: UNGUESSED_RULES_PAGING, handlers: noDocument() })
  try {
    const report = await verify(verifyOptionsFor(running))
    expect(failures(report)).toEqual([])
    for (const id of ['paging.rules-concatenation', 'paging.rules-past-end', 'paging.rules-bounds']) {
      expect(check(report, id).status, id).toBe('skipped')
      expect(check(report, id).reason, id).toMatch(/^rulesPaging not seen: /)
    }
    expect(report.profile.settings.rulesPaging, 'the profile guesses no names').toBeUndefined()
    expect(report.profile.settings.bounds?.rulesLimitMax, 'nor a rules bound').toBeUndefined()
  } finally {
    await running.close()
  }
})

it('passes timestamps in microseconds, and writes no timestamp unit for them', async () => {
  const report = await reportWithoutFailure(microsecondTimestamps())
  expect(report.profile.settings.timestampUnit).toBeUndefined()
  expect(report.profile.undetermined.timestampUnit).toMatch(/not all Unix seconds or milliseconds \(e\.g\. \d{16}/)
  expect(check(report, 'profile.timestamp-unit').warnings.join('\n')).toMatch(/no setting takes another/)
  expect(check(report, 'bulk.records').warnings.join('\n')).toMatch(/created_at \d{16} of a value added now/)
})

it('reports refusals with other statuses and bodies as choices, saying what the mock answers', async () => {
  const report = await reportWithoutFailure(ownRefusals())
  expect(check(report, 'errors.unknown-policy').warnings.join('\n')).toMatch(
    /refused with 403 \{"error":.*; the mock answers 404 with \{"detail": "\.\.\."\} \(a choice/,
  )
  expect(check(report, 'auth.wrong-scheme').warnings.join('\n')).toMatch(
    /refused with 400 .*; the mock answers 401 or 403 with \{"detail": "\.\.\."\}.*no profile setting changes it/,
  )
  expect(check(report, 'auth.no-token').warnings.join('\n')).toMatch(/refused with 401 \{"error":/)
})

it('reports a bulk add that skips invalid items as a choice', async () => {
  const report = await reportWithoutFailure(lenientBulkList())
  for (const id of ['bulk.all-or-nothing', 'validation.body'])
    expect(check(report, id).warnings.join('\n'), id).toMatch(
      /with an invalid item answered 201 .*: the server skips invalid items; the mock refuses the whole request with 422 \(a choice/,
    )
})

it('passes a constraint declared as an open model (additionalProperties: true, no properties)', async () => {
  const report = await reportWithoutFailure(openConstraintModel())
  expect(check(report, 'drift.responses').notes.join('\n')).toMatch(
    /an object that takes any field: not compared \(3 places: GET \/v1\/policies\/\{policy_id\}\/rules 200\.results\[\]\.constraints\[\]\.left_operand/,
  )
})

it('warns, not fails, of bulk item fields the server does not take as null', async () => {
  const report = await reportWithoutFailure(bulkItemFieldsNotNullable())
  const warnings = check(report, 'drift.request-body').warnings.join('\n')
  for (const field of ['display_name', 'sort_order'])
    expect(warnings).toMatch(new RegExp(`body\\.values\\[\\]\\.${field}: nullable in the mock only \\(.*own leniency`))
})

it('reports a tighter bulk cap and value length the server declares as profile findings', async () => {
  const report = await reportWithoutFailure(tighterBulkBounds())
  expect(report.profile.settings.bounds).toMatchObject(TIGHTER_BOUNDS)
  const drift = check(report, 'drift.request-body').warnings.join('\n')
  const probes = check(report, 'validation.bulk-limits').warnings.join('\n')
  for (const [name, value] of Object.entries(TIGHTER_BOUNDS)) {
    expect(drift).toMatch(`a profile finding: bounds.${name}: ${value} in the profile aligns the mock`)
    expect(probes).toMatch(`a profile finding: bounds.${name}: ${value} in the profile aligns the mock`)
  }
})

it('reports a tighter bulk cap and value length the server enforces without declaring them as profile findings', async () => {
  const report = await reportWithoutFailure(undeclaredBulkBounds())
  expect(report.profile.settings.bounds).toMatchObject(UNDECLARED_BOUNDS)
  const probes = check(report, 'validation.bulk-limits')
  expect(probes.status).toBe('passed')
  for (const [name, value] of Object.entries(UNDECLARED_BOUNDS))
    expect(probes.warnings.join('\n')).toMatch(
      `not declared in /openapi.json (a profile finding: bounds.${name}: ${value} in the profile aligns the mock)`,
    )
  expect(report.profile.detected.bounds?.source).toMatch(
    /bulkMaxItems: GET \/openapi\.json declares none; POST .* answered 404, POST .* 422/,
  )
})

it('warns, not fails, of rule fields the server declares Optional but never sends null', async () => {
  const report = await reportWithoutFailure(optionalRuleFields())
  const warnings = check(report, 'drift.responses').warnings.join('\n')
  for (const field of ['target', 'natural_language'])
    expect(warnings).toMatch(`200.results[].${field}: nullable on the server only (whether each rule field`)
})

/** verify's report on the mock answering through `handlers`: a correct server's, so with no failure. */
async function reportWithoutFailure(
  handlers: NonNullable<Parameters<typeof startMock>[0]>['handlers'],
  options?: Parameters<typeof verifyOptionsFor>[1],
): Promise<Report> {
  const running = await startMock({ handlers })
  try {
    const report = await verify(verifyOptionsFor(running, options))
    expect(failures(report)).toEqual([])
    return report
  } finally {
    await running.close()
  }
}
