import { beforeAll, expect, it } from 'vitest'
import type { Fixtures } from '../../../factories/fixtures.js'
import { verify } from '../../../verify/index.js'
import type { BrokenVariant } from '../variants/helpers.js'
import { startMock, verifyOptionsFor } from './mock.js'

/**
 * One test a broken variant, run at once within the file: verify against the mock with the variant's handlers
 * fails exactly the checks the bug breaks, the intended one with evidence (request, expected, got, a curl command).
 */
export function itCatchesEach(variants: readonly BrokenVariant[]): void {
  /** The fixtures of the default seed: every mock a variant starts has the same ids and tokens. */
  let fixtures: Fixtures
  beforeAll(async () => {
    const probe = await startMock()
    fixtures = probe.sessions.primary.fixtures
    await probe.close()
  })

  it.concurrent.each(variants)('catches "$bug" with $caughtBy', async ({ caughtBy, alsoFails = [], handlers }) => {
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
}
