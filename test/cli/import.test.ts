/**
 * `agent-console-mock import` through the built CLI, against a standalone mock of 250 personas a team (so that
 * paging is real): the imported world, served by a second mock started on the file and put into a session with
 * `PUT /__mock/state`, answers the same pages byte for byte with the same tokens; the import sends GET requests
 * only.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli, type CliServer } from '../reliability/support/cli.js'
import { fixturesOf, importCli, putState, wire, type SourceFixtures } from './support/import.js'

/** Each test runs the CLI up to three times, each with a hang guard of its own. */
const TIMEOUT_MS = 120_000

const folder = mkdtempSync(join(tmpdir(), 'acm-import-'))
let source: CliServer
let fixtures: SourceFixtures
let ids: string[]

beforeAll(async () => {
  source = await startCli(['--port', '0', '--quiet', '--personas', '250'])
  fixtures = await fixturesOf(source)
  const team = fixtures.teams[0]!.id
  const policies = fixtures.policies.filter((policy) => policy.team_id === team).map((policy) => policy.id)
  ids = ['--team-id', team, '--policy-id', ...policies, '--dimension-id', fixtures.dimensions[0]!.id]
}, TIMEOUT_MS)
afterAll(async () => {
  await source?.stop()
  rmSync(folder, { recursive: true, force: true })
})

/** Pages a frontend asks for: paging, filters, search, and rules pages under the default names. */
function queries(): string[] {
  const [big, small] = fixtures.policies.filter((policy) => policy.team_id === fixtures.teams[0]!.id)
  return [
    '/v1/personas/',
    '/v1/personas/?limit=100&offset=100',
    '/v1/personas/?limit=100&offset=200',
    '/v1/personas/?offset=300',
    '/v1/personas/?intents=adversarial&intents=curious&limit=7&offset=3',
    '/v1/personas/?is_preset=true&limit=100',
    '/v1/personas/?search=an&limit=50&offset=10',
    `/v1/personas/?team_id=${fixtures.teams[0]!.id}&search=MANAGER`,
    `/v1/policies/${big!.id}/rules`,
    `/v1/policies/${big!.id}/rules?limit=50&offset=200`,
    `/v1/policies/${big!.id}/rules?limit=1000`,
    `/v1/policies/${small!.id}/rules`,
  ]
}

it(
  'imports team 0 and its policies with GET requests only, into a file whose world answers the same bytes',
  async () => {
    await fetch(`${source.url}/__mock/requests`, { method: 'DELETE' })
    const out = join(folder, 'plain.json')
    const token = fixtures.tokens.team_reader
    const run = await importCli([...ids, '--from', source.url, '--out', out], token)
    expect(run.stderr, 'non-TTY progress: one line per list').toMatch(/^(personas|rules) of .*: [\d,]+\/[\d,]+\n/)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('1 team(s) with 250 persona(s), 2 policies with 261 rule(s), 1 dimension(s)')
    expect(run.stdout + run.stderr).not.toContain(token)

    const journal = (await (await fetch(`${source.url}/__mock/requests?limit=1000`)).json()) as {
      requests: Array<{ method: string; path: string }>
    }
    expect(journal.requests.length).toBe(3 + 3 + 1)
    expect(new Set(journal.requests.map((entry) => entry.method))).toEqual(new Set(['GET']))

    const copy = join(folder, 'served.json')
    copyFileSync(out, copy)
    const imported = await startCli(['--port', '0', '--quiet', '--state-file', copy])
    try {
      expect(imported.output(), 'the state names the default seed and size: no note').not.toContain('NOTE')
      expect(imported.output()).toContain(`  seed        1, a world imported from a server, state kept in ${copy}\n`)
      expect(await putState(source, readFileSync(out, 'utf8'), 'imported')).toBe(200)
      for (const query of queries()) {
        const original = await wire(source.url + query, token)
        expect(original.status, query).toBe(200)
        expect(await wire(imported.url + query, token), query).toEqual(original)
        expect(await wire(source.url + query, token, { 'x-mock-session': 'imported' }), query).toEqual(original)
      }
      const fixturesThere = await fixturesOf(imported)
      expect(fixturesThere.teams).toEqual([
        { id: fixtures.teams[0]!.id, name: `Imported team ${fixtures.teams[0]!.id}` },
      ])
      expect(fixturesThere.dimensions.map((dimension) => dimension.id)).toEqual([fixtures.dimensions[0]!.id])
    } finally {
      expect(await imported.stop()).toBe(0)
    }
  },
  TIMEOUT_MS,
)
