import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify, type Report } from '../../verify/index.js'
import { resolveProfile, type ProfileOptions } from '../../model/profile.js'
import { startMock, verifyOptionsFor as mockOptionsFor } from '../contract/support/mock.js'
import { BUG_CATCHES } from './bug-catches.js'
import { CLEAN_PROFILE, LEGIT_SHOWS } from './expectations.js'
import {
  fastApiTokens,
  fastApiUnavailable,
  startFastApi,
  verifyOptionsFor,
  type FastApiTokens,
  type RunningFastApi,
} from './server.js'

/**
 * verify against the reference FastAPI app (FastAPI 0.92 + pydantic 1.10): no failure against the
 * clean app or any legitimate variant (each detected in the profile it writes), and each planted
 * bug caught by the check meant for it, and no other. Variants run one after another, each on its
 * own server (about a minute and a half in all).
 */
const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/verify-real-server skipped: ${unavailable}`)

/** Set VERIFY_VARIANTS=name,name to run only some variants while working on the verifier. */
const only = process.env['VERIFY_VARIANTS']?.split(',')
const selected = <T extends { variant: string }>(rows: readonly T[]) =>
  rows.filter((row) => !only || only.includes(row.variant))

const failedIds = (report: Report) =>
  report.checks
    .filter((check) => check.status === 'failed')
    .map((check) => check.id)
    .sort()
const describeFailures = (report: Report) =>
  report.checks
    .filter((check) => check.status === 'failed')
    .map(
      (check) =>
        `${check.id}: ${check.evidence
          .slice(0, 2)
          .map((item) => `${item.request} | ${item.expected} | ${item.got}`)
          .join(' || ')}`,
    )
    .join('\n')

async function verifyVariant(variants: string[]): Promise<Report> {
  const server = await startFastApi({ variants })
  try {
    return await verify(
      verifyOptionsFor(server, await fastApiTokens(server), { otherPolicyId: server.ids.policies.other_team }),
    )
  } finally {
    await server.stop()
  }
}

describe.skipIf(unavailable !== undefined)('verify against the reference FastAPI app', () => {
  let clean: RunningFastApi
  let tokens: FastApiTokens
  let cleanReport: Report
  beforeAll(async () => {
    clean = await startFastApi()
    tokens = await fastApiTokens(clean)
    cleanReport = await verify(verifyOptionsFor(clean, tokens, { otherPolicyId: clean.ids.policies.other_team }))
  }, 60_000)
  afterAll(() => clean?.stop())

  it('fails no check against the clean app, and writes its profile', () => {
    expect(failedIds(cleanReport), describeFailures(cleanReport)).toEqual([])
    expect(cleanReport.profile.settings).toEqual(CLEAN_PROFILE)
    expect(cleanReport.profile.undetermined).toEqual({})
    expect(cleanReport.checks.filter((check) => check.status === 'skipped').map((check) => check.id)).toEqual([])
  })

  it("reads the clean app's generation: pydantic 1, FastAPI before 0.99", () => {
    const { observations } = cleanReport.profile
    expect(observations['fastapi']).toMatch(/^<0\.99 \(OpenAPI 3\.0\.2\); ≤0\.121 .*; ≤0\.128\.0/)
    expect(observations['openapi']).toBe('3.0.2, optional fields written as plain X (no null)')
    expect(observations['a number sent for a string']).toBe('taken as its string (pydantic 1)')
    const notes = cleanReport.checks.filter((check) => check.id.startsWith('drift.')).flatMap((check) => check.notes)
    expect(notes.join('\n')).toMatch(
      /dialect: pydantic 1 writes Optional\[X\] as X: nullability not compared \(\d+ places/,
    )
  })

  it('aligns the mock: started with the profile it wrote, the mock passes and shows the same profile', async () => {
    const mock = await startMock({ profile: cleanReport.profile.settings as ProfileOptions })
    try {
      const report = await verify(mockOptionsFor(mock))
      expect(failedIds(report), describeFailures(report)).toEqual([])
      expect(report.profile.settings).toEqual(CLEAN_PROFILE)
    } finally {
      await mock.close()
    }
  })

  it.each(selected(LEGIT_SHOWS))(
    '$variant: no failure, and the profile shows it',
    async ({ variant, settings, observations, warning }) => {
      const report = await verifyVariant([variant])
      expect(failedIds(report), describeFailures(report)).toEqual([])
      expect(report.profile.settings).toEqual(settings)
      expect(
        () => resolveProfile(report.profile.settings as ProfileOptions),
        'agent-console-mock --profile takes it',
      ).not.toThrow()
      for (const [name, value] of Object.entries(observations ?? {}))
        expect(report.profile.observations[name], name).toMatch(value)
      if (warning) expect(report.checks.flatMap((check) => check.warnings).join('\n')).toMatch(warning)
    },
    60_000,
  )

  it.each(selected(BUG_CATCHES))(
    '$variant is caught by $caughtBy',
    async ({ variant, caughtBy, alsoFails = [] }) => {
      const report = await verifyVariant([variant])
      expect(failedIds(report), describeFailures(report)).toEqual([caughtBy, ...alsoFails].sort())
      const evidence = report.checks.find((check) => check.id === caughtBy)!.evidence
      expect(
        evidence.every((item) => item.curl?.startsWith('curl -sS -i ')),
        'each failure comes with its curl command',
      ).toBe(true)
      expect(JSON.stringify(report)).not.toContain(tokens.reader)
    },
    60_000,
  )
})
