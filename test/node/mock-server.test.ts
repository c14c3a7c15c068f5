import { http, HttpResponse } from 'msw'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>

beforeAll(async () => {
  mock = await createMockServer({ seed: 6, baseUrl: 'http://api.test:8000/' })
  api = client(mock)
})
afterAll(() => mock.close())

it('answers on its base URL', () => {
  expect(mock.baseUrl).toBe('http://api.test:8000')
  expect(mock.url('/v1/personas/?limit=1')).toBe('http://api.test:8000/v1/personas/?limit=1')
})

it('gives fixtures: teams, dimensions, policies and tokens for each role', async () => {
  const { fixtures } = mock
  expect(fixtures.seed).toBe(6)
  expect(fixtures.teams).toHaveLength(3)
  expect(fixtures.dimensions).toHaveLength(3)
  expect(fixtures.policies[0]!.team_id).toBe(fixtures.teams[0]!.id)
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
  expect(claims(fixtures.tokens.super_admin)).toMatchObject({ is_super_admin: true })
  expect('team_id' in claims(fixtures.tokens.super_admin)).toBe(false)
  expect(claims(fixtures.tokens.team_reader)).toMatchObject({
    team_id: fixtures.teams[0]!.id,
    permissions: ['persona:read', 'policy:read'],
  })
  expect(claims(fixtures.tokens.persona_reader)).toMatchObject({
    team_id: fixtures.teams[0]!.id,
    permissions: ['persona:read'],
  })
  expect(claims(fixtures.tokens.no_permissions)).toMatchObject({ team_id: fixtures.teams[0]!.id, permissions: [] })
  expect(claims(fixtures.tokens.expired).exp).toBeLessThan(Date.now() / 1000)
})

it('mints tokens that the API accepts', async () => {
  const token = await mock.mintToken({
    sub: 'someone',
    team_id: mock.fixtures.teams[1]!.id,
    permissions: ['persona:read'],
  })
  const { body } = await api.get('/v1/personas/?limit=1', token)
  expect(body.results[0].team_id).toBe(mock.fixtures.teams[1]!.id)
})

it('resets to the seeded world, dropping writes, and can reseed', async () => {
  const dimension = mock.fixtures.dimensions[0]!.id
  const before = mock.world.values.count()
  await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    { values: [{ value: 'temporary' }] },
    mock.fixtures.tokens.super_admin,
  )
  expect(mock.world.values.count()).toBe(before + 1)
  await mock.reset()
  expect(mock.world.values.count()).toBe(before)
  const firstTeam = mock.fixtures.teams[0]!.id
  await mock.reset({ seed: 99, personasPerTeam: 3 })
  expect(mock.fixtures.teams[0]!.id).not.toBe(firstTeam)
  const { body } = await api.get('/v1/personas/', mock.fixtures.tokens.team_reader)
  expect(body.total).toBe(3)
  await mock.reset({ seed: 6, personasPerTeam: 60 })
  expect(mock.fixtures.teams[0]!.id).toBe(firstTeam)
})

it('lets a test override a handler, until resetHandlers', async () => {
  mock.use(http.get('*/v1/personas/', () => HttpResponse.json({ results: [], total: -1 })))
  expect((await api.get('/v1/personas/', mock.fixtures.tokens.team_reader)).body.total).toBe(-1)
  mock.resetHandlers()
  expect((await api.get('/v1/personas/', mock.fixtures.tokens.team_reader)).body.total).toBe(60)
})

it('arranges data through the world’s collections, and the API sees it', async () => {
  const team = mock.fixtures.teams[2]!.id
  const template = mock.world.personas.all()[0]!
  await mock.world.personas.create({
    ...template,
    id: '11111111-1111-4111-8111-111111111111',
    team_id: team,
    name: 'Arranged by a test',
    created_at: 1,
  })
  const { body } = await api.get(`/v1/personas/?team_id=${team}`, mock.fixtures.tokens.super_admin)
  expect(body.results.map((p: { name: string }) => p.name)).toEqual(['Arranged by a test'])
})

it('goes back to its own seed and size on a reset that names neither, as POST /__mock/reset does', async () => {
  await mock.reset()
  const own = [mock.fixtures.seed, mock.fixtures.teams[0]!.id, mock.world.personas.count()]
  await mock.reset({ seed: 77, personasPerTeam: 2 })
  expect([mock.fixtures.seed, mock.world.personas.count()]).toEqual([77, 4])
  await mock.reset({ personasPerTeam: 3 })
  expect([mock.fixtures.seed, mock.world.personas.count()], 'a left-out seed is its own, not the last one').toEqual([
    6, 6,
  ])
  await mock.reset()
  expect([mock.fixtures.seed, mock.fixtures.teams[0]!.id, mock.world.personas.count()]).toEqual(own)
  await mock.reset({ seed: 77 })
  const answer = await fetch(mock.url('/__mock/reset'), { method: 'POST' })
  expect(answer.status).toBe(200)
  expect([mock.fixtures.seed, mock.fixtures.teams[0]!.id, mock.world.personas.count()]).toEqual(own)
})
