import { describe, expect, it } from 'vitest'
import type { Report } from '../../verify/index.js'
import { startMock, verifyOptionsFor as mockOptionsFor } from '../contract/support/mock.js'
import { runVerifyCommand, verifyArgs } from '../support/verify-command.js'
import { CORRECT_APPS, CORRECT_MOCKS, STYLED_BUGS } from './corpus.js'
import { CLEAN_PROFILE } from './expectations.js'
import { respelledDocument } from './pydantic2-spelling.js'
import { fastApiTokens, fastApiUnavailable, startFastApi, verifyOptionsFor } from './server.js'
import type { VerifyOptions } from '../../verify/index.js'

/**
 * The verifier's regression suite of correct servers (corpus.ts): `agent-console-mock verify` exits 0 against
 * FastAPI 0.92 apps written in the styles real teams use, and against the mock as a pydantic 2 FastAPI server,
 * and writes each one's choices into the profile; a bug planted in a styled app still fails.
 */
const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/verify-corpus skipped for the FastAPI apps: ${unavailable}`)

const failedIds = (report: Report) =>
  report.checks
    .filter((check) => check.status === 'failed')
    .map((check) => check.id)
    .sort()
const failures = (report: Report) =>
  report.checks
    .filter((check) => check.status === 'failed')
    .map((check) => `${check.id}: ${check.evidence.map((item) => item.got).join(' | ')}`)
    .join('\n')

/** `verify --format json` against a server; its exit code and report. */
async function runVerify(options: VerifyOptions): Promise<{ exitCode?: number; report: Report }> {
  const output = await runVerifyCommand(...verifyArgs(options), '--format', 'json')
  return { exitCode: output.exitCode, report: JSON.parse(output.stdout) as Report }
}

async function verifyApp(variants: string[]) {
  const server = await startFastApi({ variants })
  try {
    const tokens = await fastApiTokens(server)
    return await runVerify(verifyOptionsFor(server, tokens, { otherPolicyId: server.ids.policies.other_team }))
  } finally {
    await server.stop()
  }
}

describe.skipIf(unavailable !== undefined)('correct FastAPI 0.92 apps', () => {
  it.each(CORRECT_APPS)(
    'exits 0: $name',
    async ({ variants, shows }) => {
      const { exitCode, report } = await verifyApp(variants)
      expect(exitCode, failures(report)).toBe(0)
      expect(report.profile.settings).toEqual({ ...CLEAN_PROFILE, ...shows })
    },
    60_000,
  )

  it.each(STYLED_BUGS)(
    'exits 1: $bug in the $style style',
    async ({ bug, style, fails }) => {
      const { exitCode, report } = await verifyApp([style, bug])
      expect([exitCode, failedIds(report)], failures(report)).toEqual([1, fails])
    },
    60_000,
  )
})

describe('the mock as a pydantic 2 FastAPI server', () => {
  it.each(CORRECT_MOCKS)('exits 0: $name', async ({ profile, respelled }) => {
    const mock = await startMock({ profile, handlers: respelled ? respelledDocument() : undefined })
    try {
      const { exitCode, report } = await runVerify(mockOptionsFor(mock))
      expect(exitCode, failures(report)).toBe(0)
      expect(report.profile.settings).toMatchObject(profile)
      const notes = report.checks.flatMap((check) => check.notes).join('\n')
      if (respelled)
        expect(notes).toMatch(/query or path parameter cannot carry null[\s\S]*FastAPI ≥0\.128\.1 declares input/)
    } finally {
      await mock.close()
    }
  })
})
