/**
 * `agent-console-mock import --anonymise [seed]` through the built CLI: names and free text become seeded fakes
 * (the same seed and input give the same file), while ids, enumerations, numbers, timestamps and counts stay, and
 * the anonymised world, put into a session, answers filters with the same totals and finds a fake by search.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli, type CliServer } from '../reliability/support/cli.js'
import { fixturesOf, importCli, putState, wire, type SourceFixtures } from './support/import.js'

const TIMEOUT_MS = 120_000
const folder = mkdtempSync(join(tmpdir(), 'acm-import-anonymise-'))
let source: CliServer
let fixtures: SourceFixtures
let ids: string[]

beforeAll(async () => {
  source = await startCli(['--port', '0', '--quiet', '--personas', '250'])
  fixtures = await fixturesOf(source)
  const team = fixtures.teams[0]!.id
  ids = ['--team-id', team, '--policy-id', fixtures.policies.find((policy) => policy.team_id === team)!.id]
}, TIMEOUT_MS)
afterAll(async () => {
  await source?.stop()
  rmSync(folder, { recursive: true, force: true })
})

type Json = Record<string, any>
const worldIn = (text: string) => (JSON.parse(text) as { world: { personas: Json[]; rules: Json[] } }).world
/** A record without the fields anonymisation replaces: what must stay as it was. */
const kept = (record: Json, replaced: string[]) => ({ ...record, ...Object.fromEntries(replaced.map((f) => [f, 0])) })
const PERSONA_FAKES = ['name', 'description', 'role', 'role_description', 'access_permissions', 'tags']
const RULE_FAKES = [
  'action',
  'consequence',
  'natural_language',
  'target',
  'constraints',
  'provenance',
  'tags',
  'review_notes',
]

it(
  'anonymises names and free text with seeded fakes, keeping ids, enumerations, numbers, counts and timestamps',
  async () => {
    const token = fixtures.tokens.team_reader
    const [plain, fake, again, other] = ['plain', 'fake-7', 'fake-7-again', 'fake-8'].map((n) => join(folder, n))
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

    const [originals, fakes] = [worldIn(text!), worldIn(fakeText!)]
    const fakePersonas = new Map(fakes.personas.map((persona) => [persona.id, persona]))
    expect(fakePersonas.size).toBe(originals.personas.length)
    for (const persona of originals.personas) {
      const faked = fakePersonas.get(persona.id)!
      expect(faked.name).not.toBe(persona.name)
      expect(faked.role).not.toBe(persona.role)
      expect(faked.description?.length, 'free text keeps its length').toBe(persona.description?.length)
      expect(faked.tags?.length).toBe(persona.tags?.length)
      expect(kept(faked, PERSONA_FAKES)).toEqual(kept(persona, PERSONA_FAKES))
    }
    const fakeRules = new Map(fakes.rules.map((rule) => [rule.id, rule]))
    expect(fakeRules.size).toBe(originals.rules.length)
    for (const rule of originals.rules) {
      const faked = fakeRules.get(rule.id)!
      expect(faked.natural_language).not.toBe(rule.natural_language)
      expect(faked.natural_language.length).toBe(rule.natural_language.length)
      expect(faked.consequence).toEqual({ ...rule.consequence, message: faked.consequence.message })
      const [location, fakeLocation] = [rule.provenance.source_location, faked.provenance.source_location]
      expect(fakeLocation.source_text.length).toBe(fakeLocation.char_end - fakeLocation.char_start)
      expect({ ...fakeLocation, section: 0, source_text: 0 }).toEqual({ ...location, section: 0, source_text: 0 })
      expect(faked.constraints.map((c: Json) => c.operator)).toEqual(rule.constraints.map((c: Json) => c.operator))
      expect(kept(faked, RULE_FAKES)).toEqual(kept(rule, RULE_FAKES))
    }

    expect(await putState(source, fakeText!, 'anonymised')).toBe(200)
    const listed = async (query: string, session?: string) =>
      JSON.parse(
        (await wire(`${source.url}/v1/personas/${query}`, token, session ? { 'x-mock-session': session } : {})).body,
      ) as { total: number; results: Json[] }
    for (const query of ['', '?intents=malicious', '?is_preset=false&intents=benign'])
      expect((await listed(query, 'anonymised')).total, query).toBe((await listed(query)).total)
    const someone = originals.personas[0]!
    const word = fakePersonas.get(someone.id)!.name.split(' ').at(-1)!
    const found = await listed(`?search=${encodeURIComponent(word)}&limit=100`, 'anonymised')
    expect(found.results.map((persona) => persona.id)).toContain(someone.id)
    const real = await listed(`?search=${encodeURIComponent(someone.name)}`, 'anonymised')
    expect(real.total, 'the real name is gone').toBe(0)
  },
  TIMEOUT_MS,
)

it.each(['abc', '1.5', '-1'])('refuses --anonymise %s as --seed refuses it, writing nothing', async (seed) => {
  const out = join(folder, `refused-${seed}.json`)
  const refused = await importCli([...ids, '--from', source.url, '--out', out, '--anonymise', seed], 'token')
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain('--anonymise must be an integer from 0 to 9007199254740991')
  expect(() => readFileSync(out)).toThrow()
})
