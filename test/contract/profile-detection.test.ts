import { expect, it } from 'vitest'
import { HttpResponse } from 'msw'
import { resolveProfile, type ProfileOptions } from '../../model/profile.js'
import { verify, type ProfileFile } from '../../verify/index.js'
import { pydanticOf, timestampUnitOf } from '../../verify/profile/detection.js'
import { evidenceOf, failedIds, reportOn } from './support/reports.js'
import { BULK, forward, OPENAPI, override } from './support/variant.js'
import { startMock, verifyOptionsFor } from './support/mock.js'

const NON_DEFAULT: ProfileOptions = {
  missingCredentialsStatus: 403,
  bulkAddStatus: 200,
  bulkDuplicates: 'reject',
  timestampUnit: 'ms',
  pydantic: '2.13',
  rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 },
}

/** What verify learns beyond those settings from a mock that keeps its defaults for them. */
const LEARNED_DEFAULTS: ProfileFile = {
  intents: 'string',
  bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: 1000, valueMaxLength: 255 },
  declaredErrors: {},
  errorTexts: {
    notAuthenticated: 'Not authenticated',
    invalidToken: 'Could not validate credentials',
    missingPermission: 'Missing permission: {permission}',
    teamForbidden: 'Not authorized for this team',
    superAdminRequired: 'Super admin permission required',
    policyNotFound: 'Policy not found',
    dimensionNotFound: 'Dimension not found',
    duplicateValues: 'Duplicate values: {values}',
    teamRequired: 'team_id is required',
  },
}
const EXPECTED = { ...NON_DEFAULT, ...LEARNED_DEFAULTS }

it('detects every setting of a mock started with a non-default profile, and passes', async () => {
  const running = await startMock({ profile: NON_DEFAULT })
  try {
    const report = await verify(verifyOptionsFor(running))
    expect(report.profile.settings).toEqual(EXPECTED)
    expect(resolveProfile(report.profile.settings as ProfileOptions), 'a file --profile loads').toEqual(
      resolveProfile(EXPECTED as ProfileOptions),
    )
    expect(report.profile.undetermined).toEqual({})
    expect(report.checks.filter((check) => check.status !== 'passed').map((check) => check.id)).toEqual([])
    expect(
      report.checks.flatMap((check) => check.warnings),
      "the mock's error texts for FastAPI ≤0.121 too",
    ).toEqual([])
  } finally {
    await running.close()
  }
})

it('detects duplicates stored again, as a choice that fails nothing', async () => {
  const running = await startMock({ profile: { bulkDuplicates: 'store' } })
  try {
    const report = await verify(verifyOptionsFor(running))
    expect(report.profile.settings.bulkDuplicates).toBe('store')
    expect(report.profile.detected.bulkDuplicates?.source).toMatch(/every value sent, each with its own id/)
    expect(report.checks.filter((check) => check.status !== 'passed').map((check) => check.id)).toEqual([])
  } finally {
    await running.close()
  }
})

it('finds the rules paging names and default by probing when the server publishes no /openapi.json', async () => {
  const hidden = override('get', OPENAPI, () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 }))
  const running = await startMock({ profile: NON_DEFAULT, handlers: [hidden] })
  try {
    const report = await verify(verifyOptionsFor(running))
    const { declaredErrors: _, ...withoutDocument } = EXPECTED
    expect(report.profile.settings).toEqual(withoutDocument)
    expect(report.profile.detected.rulesPaging?.source).toMatch(/422 locs of GET \/v1\/policies\/.*page_size=0/)
    expect(report.checks.filter((check) => check.id.startsWith('drift.')).map((check) => check.reason)).toEqual(
      Array(4).fill('the server publishes no /openapi.json'),
    )
    expect(report.ok).toBe(true)
  } finally {
    await running.close()
  }
})

it('leaves out what a read-only run cannot see, and says why', async () => {
  const running = await startMock({ profile: NON_DEFAULT })
  try {
    const report = await verify(verifyOptionsFor(running, { allowWrites: false }))
    const { bulkDuplicates, errorTexts, ...seen } = EXPECTED
    // An unknown dimension is asked only with writes allowed: a server may create it.
    const { duplicateValues: _, dimensionNotFound: __, ...readOnlyTexts } = errorTexts!
    expect(report.profile.settings).toEqual({ ...seen, errorTexts: readOnlyTexts })
    expect(bulkDuplicates).toBe('reject')
    expect(report.profile.undetermined.bulkDuplicates).toMatch(/read-only run/)
  } finally {
    await running.close()
  }
})

it('reads the timestamp unit from magnitudes, none from microseconds or another epoch, and the pydantic version from the UUID message', () => {
  expect([
    timestampUnitOf([1_766_699_046]),
    timestampUnitOf([1_766_699_046_000]),
    timestampUnitOf([1, 1_766_699_046_000]),
    timestampUnitOf([]),
    timestampUnitOf([1_766_699_046_000_000]),
    timestampUnitOf([188_862_246]),
  ]).toEqual(['s', 'ms', undefined, undefined, undefined, undefined])
  expect(
    pydanticOf(
      'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
    ),
  ).toBe('2.12')
  expect(pydanticOf('Input should be a valid UUID, invalid character: found `n` at 1')).toBe('2.13')
  expect(
    pydanticOf('Input should be a valid UUID, invalid length: expected length 32 for simple format, found 3'),
  ).toBeUndefined()
})

it.each([202, 203, 207] as const)('detects a bulk add answered %i, as a choice that fails nothing', async (status) => {
  const running = await startMock({ profile: { bulkAddStatus: status } })
  try {
    const report = await verify(verifyOptionsFor(running))
    expect(report.profile.settings.bulkAddStatus).toBe(status)
    expect(report.profile.detected.bulkAddStatus?.source).toMatch(`values/bulk answered ${status}`)
    expect(report.checks.filter((check) => check.status !== 'passed').map((check) => check.id)).toEqual([])
  } finally {
    await running.close()
  }
})

it('fails a bulk add answered 204, which cannot carry the records it added', async () => {
  const bodiless = override('post', BULK, async (request) => {
    const real = await forward(request)
    return real.ok ? new HttpResponse(null, { status: 204 }) : real
  })
  const report = await reportOn([bodiless])
  expect(failedIds(report)).toContain('schema.bulk-values')
  expect(evidenceOf(report, 'schema.bulk-values')).toContain('201, 200, 202, 203 or 207 with the added value')
  expect(report.profile.detected.bulkAddStatus?.source, 'no success seen: read from the document').toMatch(
    /openapi\.json/,
  )
})
