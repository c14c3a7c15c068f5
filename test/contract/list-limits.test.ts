/**
 * verify against servers whose list limit keeps another maximum than the description's
 * (test/contract/variants/list-limits.ts): the range is one finding, and every other check pages with
 * the largest limit the server takes.
 */
import { expect, it } from 'vitest'
import { verify } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import { LIST_LIMIT_VARIANTS } from './variants/list-limits.js'

it.each(LIST_LIMIT_VARIANTS.map((variant) => [variant.server, variant] as const))(
  'fails only the range of a server with %s, and writes its bound',
  async (_, { profile, handlers, fails, bounds }) => {
    const running = await startMock({ profile, handlers: handlers?.() })
    try {
      const report = await verify(verifyOptionsFor(running))
      const failed = report.checks.filter((check) => check.status === 'failed')
      const evidence = failed.map((check) => `${check.id}: ${check.evidence[0]?.request} got ${check.evidence[0]?.got}`)
      expect(failed.map((check) => check.id).sort(), evidence.join('\n')).toEqual([...fails].sort())
      expect(report.profile.settings.bounds).toMatchObject(bounds)
      const pagingChecks = report.checks.filter((check) => /^(schema|paging|filters)\./.test(check.id))
      expect(pagingChecks.filter((check) => check.status === 'skipped').map((check) => check.id)).toEqual([])
    } finally {
      await running.close()
    }
  },
  30_000,
)

it('says what the server takes when it refuses the description’s maximum of 100 personas', async () => {
  const running = await startMock({ profile: { bounds: { personasLimitMax: 50 } } })
  try {
    const report = await verify(verifyOptionsFor(running))
    const range = report.checks.find((check) => check.id === 'validation.limit-range')!
    expect(range.evidence).toEqual([
      expect.objectContaining({
        request: expect.stringMatching(/limit=100&/),
        expected: "a page: the description's limit range is 1 to 100, and the mock takes 100",
        got: expect.stringMatching(/^422 .*\(the server takes at most 50\)$/),
        curl: expect.stringMatching(/^curl -sS -i /),
      }),
    ])
    expect(report.profile.detected.bounds?.source).toMatch(
      /personasLimitMax: GET \/openapi\.json declares 50; GET \/v1\/personas\/\?.*limit=50&.* answered 200, .*limit=51&.* 422/,
    )
  } finally {
    await running.close()
  }
}, 30_000)
