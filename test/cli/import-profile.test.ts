/**
 * An import that follows the server's profile (`--profile`, as `verify --profile-out` writes it): rules paged under
 * other names, timestamps in milliseconds; a crawl whose total changes under it (a persona added meanwhile); --help.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startCli } from '../reliability/support/cli.js'
import { fixturesOf, importCli, wire } from './support/import.js'

const TIMEOUT_MS = 120_000
const folder = mkdtempSync(join(tmpdir(), 'acm-import-profile-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it(
  'reads rules under the profile paging names and timestamps in milliseconds, and answers the same bytes',
  async () => {
    const profile = join(folder, 'profile.json')
    writeFileSync(
      profile,
      JSON.stringify({ rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 }, timestampUnit: 'ms' }),
    )
    const source = await startCli(['--port', '0', '--quiet', '--personas', '120', '--profile', profile])
    try {
      const fixtures = await fixturesOf(source)
      const [team] = fixtures.teams
      const policy = fixtures.policies.find((p) => p.team_id === team!.id)!.id
      const out = join(folder, 'imported.json')
      const token = fixtures.tokens.team_reader
      const args = ['--from', source.url, '--team-id', team!.id, '--policy-id', policy, '--page-size', '1000']
      const run = await importCli([...args, '--profile', profile, '--out', out], token)
      expect(run.code, run.stderr).toBe(0)
      const state = JSON.parse(readFileSync(out, 'utf8')) as { world: { personas: Array<{ created_at: number }> } }
      expect(state.world.personas[0]!.created_at, 'the state holds seconds').toBeLessThan(1_767_225_600)
      const imported = await startCli(['--port', '0', '--quiet', '--profile', profile, '--state-file', out])
      try {
        for (const query of [
          '/v1/personas/?limit=100&offset=20',
          `/v1/policies/${policy}/rules`,
          `/v1/policies/${policy}/rules?page_size=30&skip=200`,
        ]) {
          const original = await wire(source.url + query, token)
          expect(original.status, query).toBe(200)
          expect(await wire(imported.url + query, token), query).toEqual(original)
        }
      } finally {
        await imported.stop()
      }
    } finally {
      await source.stop()
    }
  },
  TIMEOUT_MS,
)

it(
  'keeps each record once when the total changes during the crawl, and says so',
  async () => {
    const source = await startCli(['--port', '0', '--quiet', '--personas', '150'])
    try {
      const fixtures = await fixturesOf(source)
      const team = fixtures.teams[0]!.id
      const control = (method: string, path: string, body: unknown) =>
        fetch(`${source.url}/__mock/${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      // Slow pages (30 of them), so that the persona is added while the crawl is under way.
      await control('PUT', 'faults', { operations: { list_personas: { latency: 300 } } })
      const out = join(folder, 'changed.json')
      const args = ['--from', source.url, '--team-id', team, '--page-size', '5', '--out', out]
      const running = importCli(args, fixtures.tokens.team_reader)
      // The poll's timeout is a hang guard: the first page is answered after the CLI's start and 300 ms.
      await expect
        .poll(
          async () => ((await (await fetch(`${source.url}/__mock/requests`)).json()) as { requests: [] }).requests,
          {
            timeout: 20_000,
          },
        )
        .not.toHaveLength(0)
      expect((await control('POST', 'records/personas', { team_id: team, name: 'Added Meanwhile' })).status).toBe(201)
      const run = await running
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toContain(`personas of team ${team}: 150/151 (the total changed from 150 during the crawl`)
      expect(run.stderr).toContain('changed during the crawl: import again for an exact copy.')
      const { personas } = (JSON.parse(readFileSync(out, 'utf8')) as { world: { personas: Array<{ id: string }> } })
        .world
      expect(new Set(personas.map((persona) => persona.id)).size).toBe(personas.length)
      expect(personas.length).toBe(150)
    } finally {
      await source.stop()
    }
  },
  TIMEOUT_MS,
)

it('lists its options in --help', async () => {
  const { stdout } = await importCli(['--help'])
  for (const option of ['--from', '--token', '--team-id', '--policy-id', '--dimension-id', '--out', '--anonymise'])
    expect(stdout).toContain(option)
  for (const text of ['--max-records', '--page-size', '--profile', '--timeout', 'AGENT_CONSOLE_IMPORT_TOKEN'])
    expect(stdout).toContain(text)
})
