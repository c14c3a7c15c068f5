import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
let tokens: MockServer['fixtures']['tokens']
let teamId: string

beforeAll(async () => {
  mock = await createMockServer({ seed: 3 })
  api = client(mock)
  tokens = mock.fixtures.tokens
  teamId = mock.fixtures.teams[0]!.id
})
afterAll(() => mock.close())

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

/** The oracle: filter and order the stored personas the simple way. */
function expected(team: string, keep: (p: Persona) => boolean = () => true): Persona[] {
  return (mock.world.personas.all() as Persona[])
    .filter((p) => p.team_id === team && keep(p))
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
}

async function crawl(query: string, token = tokens.team_reader): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = []
  const totals: number[] = []
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await api.get(`/v1/personas/?limit=100&offset=${offset}${query}`, token)
    expect(status).toBe(200)
    totals.push(body.total)
    ids.push(...body.results.map((p: Persona) => p.id))
    if (body.results.length < 100) return { ids, totals }
  }
}

it('lists the personas of the token’s team by default, newest first, ten at a time', async () => {
  const { status, body } = await api.get('/v1/personas/', tokens.team_reader)
  expect(status).toBe(200)
  expect(body.total).toBe(60)
  expect(body.results.map((p: Persona) => p.id)).toEqual(
    expected(teamId)
      .slice(0, 10)
      .map((p) => p.id),
  )
})

it('orders by created_at descending, then id ascending', async () => {
  const { ids } = await crawl('')
  expect(ids).toEqual(expected(teamId).map((p) => p.id))
})

it('returns every field of a persona, with null where a value is empty', async () => {
  const { body } = await api.get('/v1/personas/?limit=100', tokens.team_reader)
  const fields = [
    'id',
    'team_id',
    'name',
    'description',
    'role',
    'role_description',
    'knowledge_level',
    'skill_level',
    'intent',
    'language',
    'access_permissions',
    'is_preset',
    'preset_category',
    'tags',
    'icon_filename',
    'created_at',
    'updated_at',
    'created_by',
  ]
  for (const persona of body.results) expect(Object.keys(persona)).toEqual(fields)
  const kinds = new Set(
    body.results.map((p: { access_permissions: unknown }) =>
      p.access_permissions === null
        ? 'null'
        : 'privilege_level' in (p.access_permissions as object)
          ? 'structured'
          : 'free-form',
    ),
  )
  expect([...kinds].sort(), 'the seeded world has every kind of access_permissions').toEqual([
    'free-form',
    'null',
    'structured',
  ])
  expect(body.results.some((p: Persona) => p.description === null)).toBe(true)
})

it('pages with limit and offset, and reports the total on every page', async () => {
  const all = expected(teamId).map((p) => p.id)
  const pages = await Promise.all(
    [0, 7, 14, 21, 28, 35, 42, 49, 56].map((offset) =>
      api.get(`/v1/personas/?limit=7&offset=${offset}`, tokens.team_reader),
    ),
  )
  expect(pages.map((page) => page.body.total)).toEqual(Array(9).fill(60))
  expect(pages.flatMap((page) => page.body.results.map((p: Persona) => p.id))).toEqual(all)
  expect(pages.at(-1)!.body.results).toHaveLength(4)
})

it('answers an offset past the end with no results and the true total', async () => {
  const { status, text } = await api.get('/v1/personas/?offset=60', tokens.team_reader)
  expect(status).toBe(200)
  expect(text).toBe('{"results":[],"total":60}')
  const huge = await api.get('/v1/personas/?offset=99999999999999999999', tokens.team_reader)
  expect(huge.text).toBe('{"results":[],"total":60}')
})

it('filters by one or more intents, repeated in the query', async () => {
  const { ids, totals } = await crawl('&intents=adversarial&intents=curious')
  const want = expected(teamId, (p) => p.intent === 'adversarial' || p.intent === 'curious')
  expect(ids).toEqual(want.map((p) => p.id))
  expect(totals[0]).toBe(want.length)
  expect(want.length).toBeGreaterThan(0)
})

it('matches nothing for an intent outside the enumeration, and does not split commas', async () => {
  for (const query of ['intents=hostile', 'intents=benign,curious', 'intents=', 'intents=Benign']) {
    const { status, text } = await api.get(`/v1/personas/?${query}`, tokens.team_reader)
    expect([status, text], query).toEqual([200, '{"results":[],"total":0}'])
  }
})

it('filters by preset status, reading booleans as pydantic does', async () => {
  for (const [word, value] of [
    ['true', true],
    ['YES', true],
    ['1', true],
    ['off', false],
    ['f', false],
  ] as const) {
    const { ids, totals } = await crawl(`&is_preset=${word}`)
    const want = expected(teamId, (p) => p.is_preset === value)
    expect(ids, word).toEqual(want.map((p) => p.id))
    expect(totals[0], word).toBe(want.length)
  }
})

it('searches name, description and role, case-insensitively', async () => {
  const sample = expected(teamId)
  const needles = [
    sample[3]!.name.slice(1, 6).toUpperCase(),
    sample[5]!.role.split(' ')[1]!.toLowerCase(),
    'QUI',
    'ö',
    'ΙΩ',
  ]
  for (const needle of needles) {
    const lower = needle.toLowerCase()
    const want = expected(teamId, (p) =>
      [p.name, p.description ?? '', p.role].some((field) => field.toLowerCase().includes(lower)),
    )
    const { ids, totals } = await crawl(`&search=${encodeURIComponent(needle)}`)
    expect(ids, needle).toEqual(want.map((p) => p.id))
    expect(totals[0], needle).toBe(want.length)
  }
})

it('treats an empty search as no filter', async () => {
  const { body } = await api.get('/v1/personas/?search=', tokens.team_reader)
  expect(body.total).toBe(60)
})

it('combines every filter with AND', async () => {
  const want = expected(
    teamId,
    (p) =>
      p.intent === 'benign' &&
      !p.is_preset &&
      [p.name, p.description ?? '', p.role].some((f) => f.toLowerCase().includes('e')),
  )
  const { ids } = await crawl('&intents=benign&is_preset=false&search=E')
  expect(ids).toEqual(want.map((p) => p.id))
})

it('refuses a team other than the token’s with 403', async () => {
  const other = mock.fixtures.teams[1]!.id
  const { status, text } = await api.get(`/v1/personas/?team_id=${other}`, tokens.team_reader)
  expect([status, text]).toEqual([403, '{"detail":"Not authorized for this team"}'])
})

it('accepts the token’s own team in any UUID spelling', async () => {
  const spellings = [teamId, teamId.toUpperCase(), teamId.replaceAll('-', ''), `{${teamId}}`, `urn:uuid:${teamId}`]
  for (const spelling of spellings) {
    const { status, body } = await api.get(`/v1/personas/?team_id=${encodeURIComponent(spelling)}`, tokens.team_reader)
    expect([status, body.total], spelling).toEqual([200, 60])
  }
})

it('lets a super admin list any team, and asks it for a team_id when it names none', async () => {
  const other = mock.fixtures.teams[1]!.id
  const listed = await api.get(`/v1/personas/?team_id=${other}&limit=100`, tokens.super_admin)
  expect(listed.body.total).toBe(60)
  expect(listed.body.results.every((p: Persona) => p.team_id === other)).toBe(true)
  const empty = await api.get(`/v1/personas/?team_id=${mock.fixtures.teams[2]!.id}`, tokens.super_admin)
  expect(empty.text).toBe('{"results":[],"total":0}')
  const unknown = await api.get('/v1/personas/?team_id=00000000-0000-0000-0000-000000000000', tokens.super_admin)
  expect(unknown.text).toBe('{"results":[],"total":0}')
  const missing = await api.get('/v1/personas/', tokens.super_admin)
  expect([missing.status, missing.text]).toEqual([400, '{"detail":"team_id is required"}'])
})

it('requires persona:read, and checks it before validating the query', async () => {
  const refused = await api.get('/v1/personas/?limit=0', tokens.no_permissions)
  expect([refused.status, refused.text]).toEqual([403, '{"detail":"Missing permission: persona:read"}'])
  const reader = await api.get('/v1/personas/', tokens.persona_reader)
  expect(reader.status).toBe(200)
})

it('takes the last value of a repeated scalar parameter', async () => {
  const { body } = await api.get('/v1/personas/?limit=abc&limit=3', tokens.team_reader)
  expect(body.results).toHaveLength(3)
})

it('writes non-ASCII text as raw UTF-8 with a byte-counted content-length', async () => {
  const res = await fetch(mock.url('/v1/personas/?limit=100'), {
    headers: { authorization: `Bearer ${tokens.team_reader}` },
  })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  expect(res.headers.get('content-length')).toBe(String(bytes.byteLength))
  expect(text).toMatch(/[^\x00-\x7f]/)
  expect(text).not.toMatch(/\\u00/)
})

it('compares the token’s team_id as written: another spelling is another team', async () => {
  const shouting = await mock.mintToken({ sub: 'u', team_id: teamId.toUpperCase(), permissions: ['persona:read'] })
  const own = await api.get(`/v1/personas/?team_id=${teamId}`, shouting)
  expect([own.status, own.text]).toEqual([403, '{"detail":"Not authorized for this team"}'])
})
