/**
 * The contract the demo's tests recorded (the `mock` fixture's `recordContract`, set in the config): it runs
 * after them (project `contract`), replays what the app really did against the standalone mock, where it
 * passes, and against a broken variant of it, where it fails on the interactions the bug breaks.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { replay, type RecordedContract, parseContract } from 'agent-console-mock/contract'
import { startServer } from 'agent-console-mock/server'
import { BROKEN_VARIANTS } from '../../contract/broken-variants.js'
import { API_URL, CONTRACT_FILE } from '../support/servers.js'

let contract: RecordedContract

test.beforeAll(async () => {
  contract = parseContract(await readFile(CONTRACT_FILE, 'utf8'))
})

type Fixtures = {
  teams: Array<{ id: string }>
  dimensions: Array<{ id: string }>
  policies: Array<{ id: string; team_id: string }>
}

/** The server's id for each reference a contract can name: `team i`, `dimension i`, `policy k of team i`. */
function referencesOf(fixtures: Fixtures): Record<string, string> {
  const references: Record<string, string> = {}
  for (const [i, team] of fixtures.teams.entries()) {
    references[`team ${i}`] = team.id
    const policies = fixtures.policies.filter((policy) => policy.team_id === team.id)
    for (const [k, policy] of policies.entries()) references[`policy ${k} of team ${i}`] = policy.id
  }
  for (const [i, dimension] of fixtures.dimensions.entries()) references[`dimension ${i}`] = dimension.id
  return references
}

/** The server's ids and tokens for the references and roles the contract uses. */
async function replayOn(baseUrl: string) {
  const fixtures = await (await fetch(`${baseUrl}/__mock/fixtures`)).json()
  return replay({
    baseUrl,
    contract,
    references: referencesOf(fixtures),
    tokens: fixtures.tokens,
  })
}

test('the demo’s tests recorded what the app asked, by test, with references and roles', () => {
  const operations = new Set(contract.interactions.map((item) => item.operation))
  expect([...operations].sort()).toEqual(['bulk_add_values', 'list_personas', 'list_policy_rules'])
  const tests = contract.interactions.map((item) => item.test)
  expect(tests).toEqual([...tests].sort())
  expect(tests.some((title) => title.startsWith('network.spec.ts › '))).toBe(true)
  expect(contract.interactions.some((item) => item.path.includes('/{{policy 0 of team 0}}/'))).toBe(true)
  expect(new Set(contract.interactions.map((item) => item.role))).toContain('team_reader')
})

test('replayed against the standalone mock, every interaction passes (writes skipped)', async () => {
  const report = await replayOn(API_URL)
  const failures = report.checks.filter((check) => check.status === 'failed')
  expect(failures.map((check) => `${check.id}: ${check.evidence[0]?.got}`)).toEqual([])
  expect(report.summary.passed).toBeGreaterThan(0)
  expect(report.checks.filter((check) => check.status === 'skipped').map((check) => check.reason)).toEqual(
    contract.interactions.filter((item) => item.method !== 'GET').map(() => expect.stringMatching(/--allow-writes/)),
  )
})

test('replayed against a server that leaks another team’s persona, the persona pages fail', async () => {
  const variant = BROKEN_VARIANTS.find((item) => item.bug === 'a persona of another team slips into every page')!
  const broken = await startServer({ port: 0, logger: { info() {}, error() {} } })
  broken.use(...variant.handlers(broken.sessions.primary.fixtures))
  try {
    const report = await replayOn(broken.url)
    const failures = report.checks.filter((check) => check.status === 'failed')
    const pages = contract.interactions.filter(
      (item) => item.operation === 'list_personas' && item.response.status === 200,
    )
    // Every page with records shows the leak; nothing else fails.
    expect(failures.length).toBeGreaterThan(0)
    expect(pages.map((item) => `replay.${item.test} #${item.n}`)).toEqual(
      expect.arrayContaining(failures.map((check) => check.id)),
    )
    for (const check of failures) expect(check.evidence.map((item) => item.expected).join()).toMatch(/team-scope/)
  } finally {
    await broken.close()
  }
})
