/**
 * A recorded contract replayed: what an app asked of the standalone mock (GET /__mock/contract) replayed
 * against the mock itself passes, and against broken variants fails on the interactions the bug breaks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { replay, type RecordedContract } from '../../verify/index.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { startMock } from './support/mock.js'

let source: RunningServer
let contract: RecordedContract

/** What the app under test did: pages, filters, a search, rules, a refusal, a 422, a write. */
async function appTraffic(running: RunningServer): Promise<void> {
  const { teams, policies, dimensions, tokens } = running.sessions.primary.fixtures
  const team = teams[0]!.id
  const get = (path: string, token?: string) =>
    fetch(running.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  await get(`/v1/personas/?team_id=${team}&limit=5`, tokens.team_reader)
  await get(`/v1/personas/?team_id=${team}&limit=5&offset=5`, tokens.team_reader)
  await get(`/v1/personas/?team_id=${team}&intents=curious&limit=100`, tokens.team_reader)
  await get(`/v1/personas/?team_id=${team}&limit=0`, tokens.team_reader)
  await get(`/v1/personas/?team_id=${team}`)
  await get(`/v1/policies/${policies[0]!.id}/rules?limit=3&offset=2`, tokens.team_reader)
  await fetch(`${running.url}/v1/demographics/${dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.super_admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: [{ value: 'replayed', display_name: 'Replayed' }] }),
  })
}

beforeAll(async () => {
  source = await startMock({ seed: 4, personasPerTeam: 40 })
  await appTraffic(source)
  contract = (await (await fetch(`${source.url}/__mock/contract`)).json()) as RecordedContract
})
afterAll(() => source.close())

/** Replays the contract against a fresh mock of the same seed, with `handlers` in front (a broken variant). */
async function replayAgainst(variant?: string, allowWrites = false) {
  const found = variant === undefined ? undefined : BROKEN_VARIANTS.find((item) => item.bug === variant)
  const probe = await startMock({ seed: 4, personasPerTeam: 40 })
  const fixtures = probe.sessions.primary.fixtures
  if (found) probe.use(...found.handlers(fixtures))
  try {
    return await replay({
      baseUrl: probe.url,
      contract,
      references: {
        'team 0': fixtures.teams[0]!.id,
        'policy 0 of team 0': fixtures.policies[0]!.id,
        'dimension 0': fixtures.dimensions[0]!.id,
      },
      tokens: { team_reader: fixtures.tokens.team_reader, super_admin: fixtures.tokens.super_admin },
      allowWrites,
    })
  } finally {
    await probe.close()
  }
}

const failed = (report: Awaited<ReturnType<typeof replay>>) =>
  report.checks.filter((check) => check.status === 'failed').map((check) => check.description.split(' as ')[0])

it('records each distinct interaction once, with references and roles', () => {
  expect(contract.interactions.map((item) => [item.operation, item.role, item.response.status])).toEqual([
    ['list_personas', 'team_reader', 200],
    ['list_personas', 'team_reader', 200],
    ['list_personas', 'team_reader', 200],
    ['list_personas', 'team_reader', 422],
    ['list_personas', 'anonymous', 401],
    ['list_policy_rules', 'team_reader', 200],
    ['bulk_add_values', 'super_admin', 201],
  ])
  expect(contract.interactions[0]!.query).toBe('team_id={{team 0}}&limit=5')
  expect(contract.interactions[5]!.path).toBe('/v1/policies/{{policy 0 of team 0}}/rules')
})

it('passes against the mock it was recorded on, the write skipped without --allow-writes', async () => {
  const report = await replayAgainst()
  expect(failed(report)).toEqual([])
  expect(report.summary).toMatchObject({ passed: 6, failed: 0, skipped: 1 })
  expect(report.checks.at(-1)!.reason).toMatch(/--allow-writes/)
  const withWrites = await replayAgainst(undefined, true)
  expect(withWrites.summary).toMatchObject({ passed: 7, failed: 0, skipped: 0 })
})

it('fails where a broken server leaks another team, ignores a filter or miscounts its total', async () => {
  const leak = failed(await replayAgainst('a persona of another team slips into every page'))
  expect(leak).toEqual([
    'GET /v1/personas/?team_id={{team 0}}&limit=5',
    'GET /v1/personas/?team_id={{team 0}}&limit=5&offset=5',
    'GET /v1/personas/?team_id={{team 0}}&intents=curious&limit=100',
  ])
  expect(failed(await replayAgainst('intents ignored'))).toEqual([
    'GET /v1/personas/?team_id={{team 0}}&intents=curious&limit=100',
  ])
  expect(failed(await replayAgainst('total counts what is left after the offset'))).toEqual([
    'GET /v1/personas/?team_id={{team 0}}&limit=5&offset=5',
  ])
  expect(failed(await replayAgainst('the unfiltered total counts a soft-deleted persona'))).toEqual([
    'GET /v1/personas/?team_id={{team 0}}&limit=5',
    'GET /v1/personas/?team_id={{team 0}}&limit=5&offset=5',
  ])
})

it('gives a curl command for each failure and skips what it has no id or token for', async () => {
  const report = await replayAgainst('intents ignored')
  const failure = report.checks.find((check) => check.status === 'failed')!
  expect(failure.evidence[0]!.curl).toMatch(/^curl -sS -i '.*intents=curious/)
  const bare = await replay({ baseUrl: source.url, contract, references: {}, tokens: {} })
  expect(bare.summary.passed).toBe(0)
  expect(bare.checks.map((check) => check.reason)).toContain('no id for --team-id')
})
