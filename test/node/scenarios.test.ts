import { afterEach, expect, it } from 'vitest'
import { createMockServer, defineScenario, type MockServer } from 'agent-console-mock/node'

let mock: MockServer | undefined
afterEach(() => mock?.close())

const onePreset = defineScenario({
  name: 'one-preset',
  description: 'the first team holds a single persona, a preset, answered in milliseconds',
  async apply({ world, fixtures, create, records, profile }) {
    const team = fixtures.teams[0]!.id
    for (const persona of world.personas.findMany((q) => q.where({ team_id: team })))
      await records.delete('personas', persona.id)
    await create.persona({ team_id: team, name: 'Only Preset', is_preset: true })
    profile({ timestampUnit: 'ms' })
  },
})

async function personas(server: MockServer, token = server.fixtures.tokens.team_reader) {
  const res = await fetch(server.url('/v1/personas/'), { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, json: (await res.json()) as { total: number; results: Array<Record<string, unknown>> } }
}

it('starts with the scenarios given, composed in order, and a reset returns to them', async () => {
  mock = await createMockServer({ personasPerTeam: 5, scenario: 'empty-team,forbidden-user' })
  expect(mock.scenario).toEqual(['empty-team', 'forbidden-user'])
  expect(await personas(mock)).toMatchObject({ status: 403, json: { detail: 'Missing permission: persona:read' } })
  await mock.useScenario(['empty-team'])
  expect((await personas(mock)).json).toEqual({ results: [], total: 0 })
  await mock.reset()
  expect(mock.scenario).toEqual(['empty-team', 'forbidden-user'])
  expect((await personas(mock)).status).toBe(403)
})

it('runs scenarios of its own: data, profile settings and the factories', async () => {
  mock = await createMockServer({ personasPerTeam: 5, scenarios: [onePreset], scenario: ['one-preset'] })
  const { json } = await personas(mock)
  expect(json.total).toBe(1)
  expect(json.results[0]).toMatchObject({ name: 'Only Preset', is_preset: true })
  expect(json.results[0]?.created_at as number, 'milliseconds, as the profile setting says').toBeGreaterThan(1e12)
  await mock.useScenario([])
  expect((await personas(mock)).json.total).toBe(5)
})

it('answers 401 with the fixture tokens and 200 with a fresh one under expired-session', async () => {
  mock = await createMockServer({ personasPerTeam: 2, scenario: ['expired-session'] })
  expect((await personas(mock)).status).toBe(401)
  const token = await mock.mintToken({ sub: 'u', team_id: mock.fixtures.teams[0]!.id, permissions: ['persona:read'] })
  expect((await personas(mock, token)).status).toBe(200)
})

it('fails at start on an unknown scenario, listing the known ones', async () => {
  await expect(createMockServer({ scenario: ['empty-team', 'nope'] })).rejects.toThrow(
    /Unknown scenario "nope"; known: empty-team, huge-team, policy-1000-rules, full-dimension, forbidden-user, expired-session, slow, flaky, offline/,
  )
  mock = await createMockServer({ personasPerTeam: 1 })
  await expect(mock.useScenario('nope')).rejects.toThrow(/Unknown scenario "nope"/)
})

it('refuses a scenario without a valid name', () => {
  expect(() => defineScenario({ name: 'a,b', description: '', apply: () => undefined })).toThrow(
    /Invalid scenario name/,
  )
})

it('sends the API’s answer an override read and then returned or threw, and 500 for a read one of its own', async () => {
  const reads = defineScenario({
    name: 'reads-the-answer',
    description: 'overrides that read the API’s answer before handing it on',
    apply({ override }) {
      override('list_personas', async ({ answer }) => {
        try {
          const answered = await answer()
          await answered.text()
          return answered
        } catch (refused) {
          await (refused as Response).text()
          throw refused
        }
      })
      override('list_policy_rules', async () => {
        const own = Response.json({ results: [], total: 0 })
        await own.text()
        return own
      })
    },
  })
  mock = await createMockServer({ personasPerTeam: 5, scenarios: [reads], scenario: ['reads-the-answer'] })
  const read = await personas(mock)
  expect([read.status, read.json.total]).toEqual([200, 5])
  const refused = await fetch(mock.url('/v1/personas/'))
  expect([refused.status, await refused.text()]).toEqual([401, '{"detail":"Not authenticated"}'])
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    const policy = mock.fixtures.policies[0]!.id
    const headers = { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` }
    const own = await fetch(mock.url(`/v1/policies/${policy}/rules`), { headers })
    expect([own.status, await own.text()]).toEqual([500, 'Internal Server Error'])
    expect(String(errors.flat().join(' '))).toContain('body was read already')
  } finally {
    console.error = original
  }
})

it('answers an override’s answer() with the profile settings it names, merged onto the request’s', async () => {
  const strict = defineScenario({
    name: 'forbids-anonymous',
    description: 'the API refuses missing credentials with 403, for the persona list only',
    apply({ override }) {
      override('list_personas', ({ answer }) => answer({ missingCredentialsStatus: 403 }))
    },
  })
  mock = await createMockServer({ personasPerTeam: 5, scenarios: [strict], scenario: ['forbids-anonymous'] })
  const anonymous = await fetch(mock.url('/v1/personas/'))
  expect([anonymous.status, await anonymous.text()]).toEqual([403, '{"detail":"Not authenticated"}'])
  expect((await personas(mock)).json.total).toBe(5)
})
