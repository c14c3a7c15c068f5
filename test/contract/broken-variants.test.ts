import { beforeAll, expect, it } from 'vitest'
import type { Fixtures } from '../../factories/fixtures.js'
import { ALL_CHECKS, verify } from '../../verify/index.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { startMock, verifyOptionsFor } from './support/mock.js'

/** The fixtures of the default seed: every mock a variant starts has the same ids and tokens. */
let fixtures: Fixtures
beforeAll(async () => {
  const probe = await startMock()
  fixtures = probe.sessions.primary.fixtures
  await probe.close()
})

it.concurrent.each(BROKEN_VARIANTS)('catches "$bug" with $caughtBy', async ({ caughtBy, alsoFails = [], handlers }) => {
  const running = await startMock({ handlers: handlers(fixtures) })
  try {
    const report = await verify(verifyOptionsFor(running))
    const failed = report.checks.filter((check) => check.status === 'failed')
    expect(failed.map((check) => check.id).sort(), 'exactly the checks the bug breaks fail').toEqual(
      [caughtBy, ...alsoFails].sort(),
    )
    const caught = failed.find((check) => check.id === caughtBy)!
    expect(caught.evidence.length, 'the failure shows its evidence').toBeGreaterThan(0)
    expect(
      caught.evidence.every((item) => item.request && item.expected && item.got),
      'request, expected and got',
    ).toBe(true)
    const curls = caught.evidence.map((item) => item.curl?.slice(0, 12))
    expect(curls, 'a curl command for each').toEqual(caught.evidence.map(() => 'curl -sS -i '))
    expect(report.ok).toBe(false)
  } finally {
    await running.close()
  }
})

it('has a variant that breaks each check able to fail (only contract checks can; dialect and choice ones report)', () => {
  const caught = new Set(BROKEN_VARIANTS.flatMap((variant) => [variant.caughtBy, ...(variant.alsoFails ?? [])]))
  const judging = ALL_CHECKS.filter((check) => check.kind === 'contract').map((check) => check.id)
  expect(
    judging.filter((id) => id.startsWith('profile.')),
    'the profile checks never judge',
  ).toEqual([])
  expect(
    judging.filter((id) => !caught.has(id)),
    'checks no variant breaks',
  ).toEqual([])
  expect(
    new Set(BROKEN_VARIANTS.map((variant) => variant.caughtBy)).size,
    "each judging check is some variant's intended catch",
  ).toBe(judging.length)
})
