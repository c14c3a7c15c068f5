import { expect, it } from 'vitest'
import { verify, type ProfileFile } from '../../verify/index.js'
import { resolveProfile, type ProfileOptions } from '../../model/profile.js'
import { startMock, verifyOptionsFor } from './support/mock.js'

/**
 * The settings verify learns beyond the first ones (issue #13), round trip: a mock started with
 * non-default values of them is detected as exactly those values, and passes (a server without
 * the bulk bounds is more lenient than the mock: reported, never failed).
 */
const LEARNED: ProfileFile = {
  missingCredentialsStatus: 403,
  bulkDuplicates: 'reject',
  pydantic: '1',
  intents: 'enum',
  bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: null, valueMaxLength: null },
  declaredErrors: {
    list_personas: [400, 401, 403],
    bulk_add_values: [401, 403, 404, 409],
    list_policy_rules: [401, 404],
  },
  errorTexts: {
    notAuthenticated: 'Authentication required',
    invalidToken: 'Invalid or expired token',
    missingPermission: 'You lack the {permission} permission',
    teamForbidden: 'This team is not yours',
    teamRequired: 'Please name a team',
    superAdminRequired: 'Admins only',
    policyNotFound: 'No such policy',
    dimensionNotFound: 'No such dimension',
    duplicateValues: 'Already there: {values}',
  },
}

it('detects the learned settings of a mock started with them, and passes', async () => {
  const running = await startMock({ profile: LEARNED as ProfileOptions })
  try {
    const report = await verify(verifyOptionsFor(running))
    const failures = report.checks.filter((check) => check.status === 'failed')
    expect(failures.map((check) => `${check.id}: ${JSON.stringify(check.evidence[0])}`)).toEqual([])
    expect(report.profile.settings).toMatchObject(LEARNED)
    expect(resolveProfile(report.profile.settings as ProfileOptions), 'a file --profile loads').toEqual(
      resolveProfile({ ...report.profile.settings, ...LEARNED } as ProfileOptions),
    )
    const warnings = report.checks.flatMap((check) => check.warnings).join('\n')
    expect(warnings).toMatch(/bulkMaxItems: no bound \(the mock has one\): more lenient than the mock/)
  } finally {
    await running.close()
  }
})
