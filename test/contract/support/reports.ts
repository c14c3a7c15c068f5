import { verify, type CheckResult, type Report } from '../../../verify/index.js'
import { startMock, verifyOptionsFor } from './mock.js'

/** What the variant tests read of a verify report, and how they get one. */

type MockOptions = NonNullable<Parameters<typeof startMock>[0]>

/** A check's result by id. */
export const checkOf = (report: Report, id: string): CheckResult => report.checks.find((result) => result.id === id)!

/** The ids of the failed checks, in the report's order. */
export const failedIds = (report: Report): string[] =>
  report.checks.filter((result) => result.status === 'failed').map((result) => result.id)

/** A check's warnings, one a line. */
export const warningsOf = (report: Report, id: string): string => checkOf(report, id).warnings.join('\n')

/** A check's evidence, as JSON text to match against. */
export const evidenceOf = (report: Report, id: string): string => JSON.stringify(checkOf(report, id).evidence)

/** verify's report on the standalone mock answering through `handlers` (and under `profile`), closed after. */
export async function reportOn(
  handlers: MockOptions['handlers'],
  setup: { profile?: MockOptions['profile']; options?: Parameters<typeof verifyOptionsFor>[1] } = {},
): Promise<Report> {
  const running = await startMock({ handlers, ...(setup.profile ? { profile: setup.profile } : {}) })
  try {
    return await verify(verifyOptionsFor(running, setup.options))
  } finally {
    await running.close()
  }
}
