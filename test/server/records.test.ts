import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
const NOW = '2026-03-01T09:00:00Z'
const NOW_SECONDS = Date.parse(NOW) / 1000
const fixtures = () => running.sessions.primary.fixtures
const post = (collection: string, json: unknown, headers?: Record<string, string>) =>
  call(`/__mock/records/${collection}`, { method: 'POST', json, headers })

beforeAll(async () => {
  running = await startTestServer({ seed: 24, personasPerTeam: 4 })
  call = http(running)
})
beforeEach(async () => {
  await call('/__mock/reset', { method: 'POST' })
  await call('/__mock/clock', { method: 'PUT', json: { now: NOW, frozen: true } })
})
afterAll(() => running.close())

it('stores one persona, answers 201 with it as the API writes it, and lists it at once', async () => {
  const created = await post('personas', { name: 'Ada', role: 'Analyst', intent: 'adversarial' })
  expect(created.status).toBe(201)
  expect(created.json).toMatchObject({
    team_id: fixtures().teams[0]!.id,
    name: 'Ada',
    intent: 'adversarial',
    knowledge_level: 'intermediate',
    tags: null,
    created_at: NOW_SECONDS,
    updated_at: NOW_SECONDS,
  })
  const listed = await call('/v1/personas/?intents=adversarial&search=Ada&limit=100', {
    token: fixtures().tokens.team_reader,
  })
  expect(listed.json.results.map((p: { id: string }) => p.id)).toContain(created.json.id)
  // Same bytes as the list writes.
  const inList = listed.text.slice(listed.text.indexOf(`{"id":"${created.json.id}"`))
  expect(inList.startsWith(created.text)).toBe(true)
})

it('stores an array, each item filled in, in order; values numbered after the dimension’s last', async () => {
  const dimension = fixtures().dimensions[1]!.id // 3 values: sort_order 0 to 2
  const created = await post('values', [{ dimension_id: dimension, value: 'north' }, { dimension_id: dimension }])
  expect(created.status).toBe(201)
  expect(created.json).toHaveLength(2)
  expect(created.json[0]).toMatchObject({
    value: 'north',
    display_name: 'north',
    sort_order: 3,
    created_at: NOW_SECONDS,
  })
  expect(created.json[1]).toMatchObject({ dimension_id: dimension, sort_order: 4 })
  expect((await post('teams', [])).json).toEqual([])
})

it('gives the same ids after a reset (seeded per world and counted)', async () => {
  const first = (await post('teams', [{}, {}])).json.map((team: { id: string }) => team.id)
  await call('/__mock/reset', { method: 'POST' })
  const again = (await post('teams', [{}, {}])).json.map((team: { id: string }) => team.id)
  expect(again).toEqual(first)
})

it('answers 422 naming every bad field, and stores nothing of the array', async () => {
  const before = running.sessions.primary.world.personas.count()
  const answer = await post('personas', [
    { name: 'fine' },
    { intent: 'evil', team_id: 'not-a-uuid' },
    { team_id: '00000000-0000-4000-8000-000000000000', colour: 'red' },
  ])
  expect(answer.status).toBe(422)
  expect(answer.json.detail).toMatch(
    /^Invalid personas: \[1\]\.team_id: .*; \[1\]\.intent: .*; \[2\]\.colour: not a field of this record; \[2\]\.team_id: no team has the id 00000000-0000-4000-8000-000000000000$/,
  )
  expect(running.sessions.primary.world.personas.count()).toBe(before)
  const unknownTeam = await post('personas', { team_id: '00000000-0000-4000-8000-000000000000' })
  expect(unknownTeam.json).toEqual({
    detail: 'Invalid personas: team_id: no team has the id 00000000-0000-4000-8000-000000000000',
  })
  expect((await post('personas', [{ intent: 'evil' }])).json.detail).toMatch(/^Invalid personas: \[0\]\.intent: /)
  const repeated = await post('values', [{ value: 'twice' }, { value: 'twice' }])
  expect(repeated.json.detail).toBe('Invalid values: [1].value: item 0 adds this value to this dimension already')
})

it('refuses an unknown collection (404) and a body that is no record (400)', async () => {
  expect(await post('agents', {})).toMatchObject({
    status: 404,
    json: { detail: 'No collection "agents": use one of teams, personas, dimensions, values, policies, rules' },
  })
  expect((await post('teams', 'a name')).status).toBe(400)
  expect((await post('teams', [1])).json).toEqual({ detail: 'Invalid teams: [0]: expected an object of fields' })
  expect((await call('/__mock/records/teams', { method: 'POST', body: '{' })).status).toBe(400)
  expect((await call('/__mock/records/teams', { method: 'GET' })).status).toBe(405)
})

it('deletes a record and what belongs to it (204), and answers 404 for an unknown one', async () => {
  const policy = fixtures().policies[0]!.id
  const deleted = await call(`/__mock/records/policies/${policy}`, { method: 'DELETE' })
  expect(deleted).toMatchObject({ status: 204, text: '' })
  const rules = await call(`/v1/policies/${policy}/rules`, { token: fixtures().tokens.team_reader })
  expect(rules).toMatchObject({ status: 404, json: { detail: 'Policy not found' } })
  expect(await call(`/__mock/records/policies/${policy}`, { method: 'DELETE' })).toMatchObject({
    status: 404,
    json: { detail: `No record of policies has the id "${policy}"` },
  })
  expect((await call('/__mock/records/agents/x', { method: 'DELETE' })).status).toBe(404)
})

it('writes to the session’s world only', async () => {
  const session = { 'x-mock-session': 'records-a' }
  const team = await post('teams', { name: 'Session team' }, session)
  expect(team.status).toBe(201)
  const has = (key?: string) =>
    running.sessions.instance(key).then((instance) => instance.world.teams.all().some((t) => t.id === team.json.id))
  expect(await has('records-a')).toBe(true)
  expect(await has(undefined)).toBe(false)
})
