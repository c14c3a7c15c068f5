import { expect, it } from 'vitest'
import { verify, type Report } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import { checkOf, failedIds, reportOn } from './support/reports.js'
import * as crashes from './variants/crashes.js'

const TIMEOUT = 30_000

const serverError = (report: Report) => checkOf(report, 'errors.server-error')
const failed = failedIds

/** verify's report on the mock answering through `handlers`. */

it('passes errors.server-error against the mock itself, listed with the errors checks', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn([])
  expect(failed(report)).toEqual([])
  expect(serverError(report)).toMatchObject({ group: 'errors', kind: 'contract', status: 'passed' })
  const ids = report.checks.map((check) => check.id)
  expect(ids.slice(ids.indexOf('errors.unknown-policy'), ids.indexOf('errors.server-error') + 1)).toEqual([
    'errors.unknown-policy',
    'errors.unknown-dimension',
    'errors.server-error',
  ])
})

it('fails a crash on an empty bulk add to --dimension-id, which only the preconditions send', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(crashes.emptyBulkCrashes())
  expect(failed(report)).toEqual(['errors.server-error'])
  expect(report.ok).toBe(false)
  // Only preconditions send an empty list to --dimension-id (the admin token's and the dimension's own).
  const evidence = serverError(report).evidence
  expect(evidence.length).toBeGreaterThan(0)
  for (const item of evidence)
    expect(item).toMatchObject({
      request: expect.stringMatching(
        /^POST \/v1\/demographics\/[\w-]+\/values\/bulk \(admin token\) body \{"values":\[\]\}, sent by the (token|id) preconditions$/,
      ),
      expected: 'a 2xx, or a 4xx refusing it: never a 5xx',
      got: '500 Internal Server Error',
      curl: expect.stringMatching(/^curl -sS -i -X POST '.*\/values\/bulk' .*--data-raw '\{"values":\[\]\}'$/),
    })
})

it('fails a crash on an unknown intent, which profile.intents would read from /openapi.json instead', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(crashes.unknownIntentCrashes())
  expect(failed(report)).toEqual(['errors.server-error'])
  const evidence = serverError(report).evidence
  expect(evidence.map((item) => item.request)).toEqual([
    expect.stringMatching(/^GET \/v1\/personas\/\?.*intents=zz-[\w-]+.* \(token\), sent by profile\.intents$/),
  ])
  expect(evidence[0]!.got).toBe('500 Internal Server Error')
})

it('fails a 503 with Retry-After too, saying the request went unverified', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(crashes.unknownIntentRateLimited())
  expect(failed(report)).toEqual(['errors.server-error'])
  expect(serverError(report).evidence[0]!.got).toMatch(
    /^503 \{"detail":"Too many requests, slow down"\} \(Retry-After: 30\): the server, or a rate limiter in front of it, was unavailable, so this request was not verified/,
  )
})

it('skips errors.server-error with the rest when the deadline cut the run short, and says so in the report', {
  timeout: TIMEOUT,
}, async () => {
  const running = await startMock({ handlers: crashes.openApiDelayed(1_000) })
  try {
    // The deadline has passed once /openapi.json, the first request, answers: every check is skipped for it.
    const report = await verify(verifyOptionsFor(running, { deadlineMs: 50 }))
    expect(report.ok, 'nothing failed').toBe(true)
    const skipped = report.checks.filter((check) => check.status === 'skipped').map((check) => check.id)
    expect(skipped).toEqual(report.checks.map((check) => check.id))
    expect(report.cutShort?.deadlineMs).toBe(50)
    expect([...(report.cutShort?.skippedChecks ?? [])].sort()).toEqual([...skipped].sort())
    expect(serverError(report).reason).toBe('the run reached its deadline before this check')
  } finally {
    await running.close()
  }
})

it('fails a crash seen before the deadline even when the deadline skipped the checks after it', {
  timeout: TIMEOUT,
}, async () => {
  const running = await startMock({ handlers: [...crashes.emptyBulkCrashes(), ...crashes.openApiDelayed(1_000)] })
  try {
    const report = await verify(verifyOptionsFor(running, { deadlineMs: 50 }))
    expect(failed(report)).toEqual(['errors.server-error'])
    expect(report.cutShort?.skippedChecks).not.toContain('errors.server-error')
  } finally {
    await running.close()
  }
})
