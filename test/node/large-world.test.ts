import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

type Persona = {
  id: string
  team_id: string
  name: string
  description: string | null
  role: string
  intent: string
  is_preset: boolean
  created_at: number
}

let mock: MockServer
let api: ReturnType<typeof client>
let ordered: Persona[]

beforeAll(async () => {
  mock = await createMockServer({ seed: 21, personasPerTeam: 100_000 })
  api = client(mock)
  const team = mock.fixtures.teams[0]!.id
  ordered = (mock.world.personas.all() as Persona[])
    .filter((p) => p.team_id === team)
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
}, 120_000)
afterAll(() => mock.close())

const ids = (results: Persona[]) => results.map((p) => p.id)

it('pages through 100,000 personas of one team in order', async () => {
  expect(ordered).toHaveLength(100_000)
  for (const offset of [0, 31_337, 99_995]) {
    const { body } = await api.get(`/v1/personas/?limit=100&offset=${offset}`, mock.fixtures.tokens.team_reader)
    expect(body.total).toBe(100_000)
    expect(ids(body.results), `offset ${offset}`).toEqual(ids(ordered.slice(offset, offset + 100)))
  }
})

it('filters and searches 100,000 personas with exact totals', async () => {
  const cases: Array<[string, (p: Persona) => boolean]> = [
    ['intents=malicious&intents=benign', (p) => p.intent === 'malicious' || p.intent === 'benign'],
    ['is_preset=true', (p) => p.is_preset],
    ['search=ENGINEER', (p) => [p.name, p.description ?? '', p.role].some((f) => f.toLowerCase().includes('engineer'))],
    [
      'search=zoë&intents=curious',
      (p) =>
        p.intent === 'curious' && [p.name, p.description ?? '', p.role].some((f) => f.toLowerCase().includes('zoë')),
    ],
  ]
  for (const [query, keep] of cases) {
    const want = ordered.filter(keep)
    const { body } = await api.get(`/v1/personas/?${query}&limit=100&offset=50`, mock.fixtures.tokens.team_reader)
    expect(body.total, query).toBe(want.length)
    expect(ids(body.results), query).toEqual(ids(want.slice(50, 150)))
  }
})
