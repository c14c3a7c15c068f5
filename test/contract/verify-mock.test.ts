import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../server/start.js'
import { verify } from '../../verify/index.js'
import { rewrite, PERSONAS } from './support/variant.js'
import { startMock, verifyOptionsFor } from './support/mock.js'

let running: RunningServer
beforeAll(async () => {
  running = await startMock()
})
afterAll(() => running.close())

const values = () => running.sessions.primary.world.values.all().map(({ value }) => value)

it('passes every check against the mock itself, writes included', async () => {
  const before = values()
  const report = await verify(verifyOptionsFor(running))
  expect(
    report.checks
      .filter((check) => check.status !== 'passed')
      .map((check) => `${check.id}: ${check.reason ?? JSON.stringify(check.evidence)}`),
  ).toEqual([])
  expect(report.ok).toBe(true)
  expect(report.summary.warnings, JSON.stringify(report.checks.flatMap((check) => check.warnings))).toBe(0)
  const added = values().filter((value) => !before.includes(value))
  expect(added.length, 'the writes added values').toBeGreaterThan(0)
  expect(
    added.every((value) => value.startsWith('agent-console-mock-verify-')),
    'only uniquely named values',
  ).toBe(true)
  expect(values().slice(0, before.length), 'nothing else changed').toEqual(before)
})

it('writes nothing without allowWrites, and says why the write checks are skipped', async () => {
  const before = values()
  const report = await verify(verifyOptionsFor(running, { allowWrites: false }))
  expect(values()).toEqual(before)
  expect(report.ok).toBe(true)
  const skipped = report.checks.filter((check) => check.status === 'skipped')
  expect(skipped.map((check) => check.id).sort()).toEqual([
    'bulk.all-or-nothing',
    'bulk.defaults',
    'bulk.duplicates',
    'bulk.records',
    'errors.unknown-dimension',
    'profile.bulk-defaults',
    'profile.bulk-duplicates',
    'schema.bulk-values',
    'validation.bulk-limits',
  ])
  for (const id of ['bulk.defaults', 'errors.unknown-dimension', 'validation.bulk-limits'])
    expect(skipped.find((check) => check.id === id)?.reason, id).toMatch(/read-only run: pass --allow-writes/)
  expect(report.profile.detected.bulkAddStatus?.source, 'read from the published document instead').toMatch(
    /openapi\.json/,
  )
})

it('discovers the team from the token and skips what needs ids it cannot discover', async () => {
  const { tokens } = running.sessions.primary.fixtures
  const report = await verify({ baseUrl: running.url, token: tokens.team_reader })
  expect(report.ok).toBe(true)
  expect(report.ids.teamId).toBe(running.sessions.primary.fixtures.teams[0]!.id)
  const reasons = Object.fromEntries(
    report.checks.filter((check) => check.status === 'skipped').map((check) => [check.id, check.reason]),
  )
  expect(reasons['schema.rule-list']).toMatch(/needs --policy-id/)
  expect(reasons['auth.no-permission']).toMatch(/needs --no-perm-token/)
  expect(reasons['validation.body']).toMatch(/needs --admin-token/)
  expect(report.checks.find((check) => check.id === 'filters.search-fields')?.status).toBe('passed')
})

it('warns about an unknown extra field without failing', async () => {
  const extra = await startMock({
    handlers: [
      rewrite('get', PERSONAS, (body) => ({
        ...body,
        results: body.results.map((persona: object) => ({ ...persona, avatar_url: null })),
      })),
    ],
  })
  try {
    const report = await verify(verifyOptionsFor(extra))
    const schema = report.checks.find((check) => check.id === 'schema.persona-list')!
    expect(schema.status).toBe('passed')
    expect(schema.warnings).toEqual([
      'PersonaListResponse: results[].avatar_url: unknown field, not in the contract (60 times)',
    ])
    expect(report.ok).toBe(true)
  } finally {
    await extra.close()
  }
})
