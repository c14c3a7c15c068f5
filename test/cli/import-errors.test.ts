/**
 * What stops `agent-console-mock import` (exit 2, one sentence on stderr, no file), and what does not: a bound that
 * cuts the crawl (a valid file of what was read, and a note) and an empty team.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli, type CliServer } from '../reliability/support/cli.js'
import { fixturesOf, importCli, putState, wire, type SourceFixtures } from './support/import.js'

const TIMEOUT_MS = 60_000
const folder = mkdtempSync(join(tmpdir(), 'acm-import-errors-'))
let source: CliServer
let fixtures: SourceFixtures

beforeAll(async () => {
  source = await startCli(['--port', '0', '--quiet', '--personas', '150'])
  fixtures = await fixturesOf(source)
}, TIMEOUT_MS)
afterAll(async () => {
  await source?.stop()
  rmSync(folder, { recursive: true, force: true })
})

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

it('stops with exit 2 and one sentence when the server cannot be reached', async () => {
  const port = await closedPort()
  const out = join(folder, 'unreachable.json')
  const run = await importCli(['--from', `http://127.0.0.1:${port}`, '--team-id', 'x', '--out', out], 'a-token')
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    `agent-console-mock import: Cannot reach http://127.0.0.1:${port}: ` +
      'connection refused: is the server running on that port?\n',
  )
  expect(existsSync(out)).toBe(false)
})

it('stops with exit 2 when the server rejects the token, naming why and never the token', async () => {
  const out = join(folder, 'rejected.json')
  const team = fixtures.teams[0]!.id
  const token = fixtures.tokens.expired
  const run = await importCli(['--from', source.url, '--team-id', team, '--out', out], token)
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    `agent-console-mock import: The server answered GET /v1/personas/?team_id=${team}&limit=100&offset=0 with 401 ` +
      '"Could not validate credentials": --token expired on 2026-01-01T01:00:00.000Z; nothing was written.\n',
  )
  expect(run.stderr + run.stdout).not.toContain(token)
  expect(existsSync(out)).toBe(false)
  const otherTeam = await importCli(['--from', source.url, '--team-id', fixtures.teams[1]!.id, '--out', out], token)
  expect(otherTeam.code).toBe(2)
})

it('stops with exit 2 naming every required option left out', async () => {
  const run = await importCli([])
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    'agent-console-mock import: missing required options --from <url> and --token <token> ' +
      '(or AGENT_CONSOLE_IMPORT_TOKEN) and --team-id <id...> and --out <file>; see --help.\n',
  )
})

it('stops with exit 2 on a server error in the middle of the crawl, and writes nothing', async () => {
  const faults = (body: unknown) =>
    fetch(`${source.url}/__mock/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await faults({ operations: { list_policy_rules: { error: { status: 503, rate: 1 } } } })).status).toBe(200)
  const out = join(folder, 'server-error.json')
  const policy = fixtures.policies[0]!.id
  try {
    const run = await importCli(
      ['--from', source.url, '--team-id', fixtures.teams[0]!.id, '--policy-id', policy, '--out', out],
      fixtures.tokens.team_reader,
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      `agent-console-mock import: The server answered GET /v1/policies/${policy}/rules?limit=100&offset=0 ` +
        'with 503 "Service Unavailable"; nothing was written.\n',
    )
    expect(existsSync(out)).toBe(false)
  } finally {
    expect((await faults({})).status).toBe(200)
  }
})

it('cuts the crawl at --max-records, says so, and writes the records read as a valid state', async () => {
  const out = join(folder, 'cut.json')
  const team = fixtures.teams[0]!.id
  const token = fixtures.tokens.team_reader
  const run = await importCli(
    ['--from', source.url, '--team-id', team, '--max-records', '120', '--page-size', '50', '--out', out],
    token,
  )
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).toBe(
    `personas of team ${team}: 120/150 (cut: --max-records reached)\n` +
      `Cut at --max-records 120: personas of team ${team} not read whole.\n`,
  )
  expect(await putState(source, readFileSync(out, 'utf8'), 'cut')).toBe(200)
  const session = { 'x-mock-session': 'cut' }
  const page = async (query: string, headers = {}) =>
    JSON.parse((await wire(`${source.url}/v1/personas/${query}`, token, headers)).body) as { total: number }
  expect(await page('?limit=100', session)).toEqual({ ...(await page('?limit=100')), total: 120 })
})

it('imports an empty team as a team without personas', async () => {
  const out = join(folder, 'empty.json')
  const empty = fixtures.teams[2]!.id
  const admin = fixtures.tokens.super_admin
  const run = await importCli(['--from', source.url, '--team-id', empty, '--out', out], admin)
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).toBe(`personas of team ${empty}: 0/0\n`)
  expect(await putState(source, readFileSync(out, 'utf8'), 'empty')).toBe(200)
  const listed = await wire(`${source.url}/v1/personas/?team_id=${empty}`, admin, { 'x-mock-session': 'empty' })
  expect(listed).toEqual(await wire(`${source.url}/v1/personas/?team_id=${empty}`, admin))
})

it('stops with exit 2 when the records are not a world the mock can hold (a persona of another team)', async () => {
  const [team, other] = fixtures.teams
  const admin = fixtures.tokens.super_admin
  const leaked = JSON.parse((await wire(`${source.url}/v1/personas/?team_id=${other!.id}&limit=1`, admin)).body)
  const override = await fetch(`${source.url}/__mock/overrides/list_personas`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 200, body: { results: leaked.results, total: 1 } }),
  })
  expect(override.status).toBe(200)
  const out = join(folder, 'leaked.json')
  try {
    const run = await importCli(['--from', source.url, '--team-id', team!.id, '--out', out], admin)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'agent-console-mock import: The records read are not a world the mock can hold, so nothing was written: ' +
        `the records contradict each other: world.personas.0.team_id: no team has the id ${other!.id}.\n`,
    )
    expect(existsSync(out)).toBe(false)
  } finally {
    await fetch(`${source.url}/__mock/overrides`, { method: 'DELETE' })
  }
})
