/**
 * `agent-console-mock import` through the built CLI, against a standalone mock of 250 personas a team (so that
 * paging is real): the imported world, served by a second mock started on the file and put into a session with
 * `PUT /__mock/state`, answers the same pages byte for byte with the same tokens; the import sends GET requests
 * only; an anonymised import keeps ids, counts, enumerations and timestamps and changes names and text.
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

interface Persona {
  id: string
  name: string
  description: string | null
  role: string
  intent: string
  created_at: number
  tags: string[] | null
}
const personasIn = (text: string) => (JSON.parse(text) as { world: { personas: Persona[] } }).world.personas

it(
  'anonymises names and free text with seeded fakes, keeping ids, enumerations, counts and timestamps',
  async () => {
    const token = fixtures.tokens.team_reader
    const [plain, fake, again, other] = ['plain-a', 'fake-7', 'fake-7-again', 'fake-8'].map((n) => join(folder, n))
    const runs = await Promise.all([
      importCli([...ids, '--from', source.url, '--out', plain!], token),
      importCli([...ids, '--from', source.url, '--out', fake!, '--anonymise', '7'], token),
      importCli([...ids, '--from', source.url, '--out', again!, '--anonymise', '7'], token),
      importCli([...ids, '--from', source.url, '--out', other!, '--anonymise', '8'], token),
    ])
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const [text, fakeText, againText, otherText] = [plain, fake, again, other].map((f) => readFileSync(f!, 'utf8'))
    expect(againText, 'the same seed and input give the same file').toBe(fakeText)
    expect(otherText).not.toBe(fakeText)

    const originals = personasIn(text!)
    const fakes = new Map(personasIn(fakeText!).map((persona) => [persona.id, persona]))
    expect(fakes.size).toBe(originals.length)
    for (const persona of originals) {
      const faked = fakes.get(persona.id)!
      expect(faked.name).not.toBe(persona.name)
      expect(faked.role).not.toBe(persona.role)
      expect(faked.description === null).toBe(persona.description === null)
      expect(faked.description?.length).toBe(persona.description?.length)
      expect({
        ...faked,
        name: 0,
        description: 0,
        role: 0,
        role_description: 0,
        access_permissions: 0,
        tags: 0,
      }).toEqual({ ...persona, name: 0, description: 0, role: 0, role_description: 0, access_permissions: 0, tags: 0 })
      expect(faked.tags?.length).toBe(persona.tags?.length)
    }

    expect(await putState(source, fakeText!, 'anonymised')).toBe(200)
    const session = { 'x-mock-session': 'anonymised' }
    const listed = async (query: string, headers = session) =>
      JSON.parse((await wire(`${source.url}/v1/personas/${query}`, token, headers)).body) as {
        total: number
        results: Persona[]
      }
    for (const query of ['', '?intents=malicious', '?is_preset=false&intents=benign'])
      expect((await listed(query)).total, query).toBe((await listed(query, {} as typeof session)).total)
    const [someone] = originals
    const word = fakes.get(someone!.id)!.name.split(' ').at(-1)!
    const found = await listed(`?search=${encodeURIComponent(word)}&limit=100`)
    expect(found.results.map((persona) => persona.id)).toContain(someone!.id)
    expect((await listed(`?search=${encodeURIComponent(someone!.name)}`)).total, 'the real name is gone').toBe(0)
  },
  TIMEOUT_MS,
)
