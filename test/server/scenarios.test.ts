import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
const fixtures = () => running.sessions.primary.fixtures
const tokens = () => fixtures().tokens
const personas = (headers: Record<string, string> = {}) =>
  call('/v1/personas/?limit=1', { token: tokens().team_reader, headers })
const bulkAdd = (dimension: string, values: string[], headers: Record<string, string> = {}) =>
  call(`/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    token: tokens().super_admin,
    headers,
    json: { values: values.map((value) => ({ value })) },
  })

beforeAll(async () => {
  running = await startTestServer({ seed: 31, personasPerTeam: 4 })
  call = http(running)
})
beforeEach(() => call('/__mock/reset', { method: 'POST' }))
afterAll(() => running.close())

it('lists every built-in scenario with a description', async () => {
  const { status, json } = await call('/__mock/scenarios')
  expect(status).toBe(200)
  expect(json.scenarios.map((s: { name: string }) => s.name)).toEqual([
    'empty-team',
    'huge-team',
    'policy-1000-rules',
    'full-dimension',
    'forbidden-user',
    'expired-session',
    'slow',
    'flaky',
    'offline',
  ])
  for (const scenario of json.scenarios) expect(scenario.description, scenario.name).not.toBe('')
})

it('applies a scenario to one request only, leaving the world as it was', async () => {
  expect((await personas({ 'x-mock-scenario': 'empty-team' })).json).toEqual({ results: [], total: 0 })
  expect((await personas()).json.total, 'the default world keeps its personas').toBe(4)
})

it('keeps no write of a request whose scenario arranged data', async () => {
  const dimension = fixtures().dimensions[1]!.id
  expect((await bulkAdd(dimension, ['kept-nowhere'], { 'x-mock-scenario': 'empty-team' })).status).toBe(201)
  expect((await bulkAdd(dimension, ['kept-nowhere'])).json, 'the value was added to a fork').toHaveLength(1)
})

it('keeps the writes of a request whose scenario arranges no data', async () => {
  const dimension = fixtures().dimensions[1]!.id
  const headers = { 'x-mock-scenario': 'expired-session' }
  expect((await bulkAdd(dimension, ['x'], headers)).status, 'fixture tokens have expired').toBe(401)
  const token = (await call('/__mock/tokens', { method: 'POST', json: { sub: 'a', is_super_admin: true, exp: null } }))
    .json.token
  const added = await call(`/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    token,
    headers,
    json: { values: [{ value: 'kept' }] },
  })
  expect(added.status).toBe(201)
  expect((await bulkAdd(dimension, ['kept'])).json, 'a duplicate now').toEqual([])
})

it('answers 401 with the fixture tokens under expired-session', async () => {
  const { status, json } = await personas({ 'x-mock-scenario': 'expired-session' })
  expect(status).toBe(401)
  expect(json).toEqual({ detail: 'Could not validate credentials' })
})

it('answers 403 as the API does under forbidden-user', async () => {
  const headers = { 'x-mock-scenario': 'forbidden-user' }
  expect(await personas(headers)).toMatchObject({ status: 403, json: { detail: 'Missing permission: persona:read' } })
  expect(await bulkAdd(fixtures().dimensions[0]!.id, ['a'], headers)).toMatchObject({
    status: 403,
    json: { detail: 'Super admin permission required' },
  })
  expect((await call('/v1/personas/', { headers })).status, 'no token is still a 401').toBe(401)
})

it('holds 1000 rules in the first policy under policy-1000-rules', async () => {
  const policy = fixtures().policies[0]!.id
  const { status, json } = await call(`/v1/policies/${policy}/rules?limit=1000`, {
    token: tokens().team_reader,
    headers: { 'x-mock-scenario': 'policy-1000-rules' },
  })
  expect(status).toBe(200)
  expect(json.total).toBe(1000)
  expect(new Set(json.results.map((rule: { rule_id: string }) => rule.rule_id)).size).toBe(1000)
})

it('refuses bulk adds to the full dimension with the bound’s 422, and takes them elsewhere', async () => {
  const headers = { 'x-mock-scenario': 'full-dimension' }
  const [full, other] = fixtures().dimensions
  const refused = await bulkAdd(full!.id, ['one-more'], headers)
  expect(refused.status).toBe(422)
  expect(refused.json.detail[0]).toMatchObject({ type: 'too_long', loc: ['body', 'values'] })
  expect((await bulkAdd(other!.id, ['one-more'], headers)).status).toBe(201)
  expect((await call('/v1/personas/', { headers })).status, 'auth first, as always').toBe(401)
})

it('drops the connection under offline', async () => {
  await expect(personas({ 'x-mock-scenario': 'offline' })).rejects.toThrow()
})

it('selects scenarios for a session: composed, listed, isolated, and reset', async () => {
  const session = { 'x-mock-session': 'scenario-a' }
  const selected = await call('/__mock/scenario', {
    method: 'PUT',
    headers: session,
    json: { scenarios: ['empty-team', 'slow'] },
  })
  expect(selected).toMatchObject({ status: 200, json: { scenarios: ['empty-team', 'slow'] } })
  expect((await call('/__mock/scenario', { headers: session })).json).toEqual({ scenarios: ['empty-team', 'slow'] })
  expect((await call('/__mock/faults', { headers: session })).json).toEqual({ latency: { min: 800, max: 1500 } })
  expect((await call('/__mock/faults')).json, 'the default world has none').toEqual({})
  expect((await personas()).json.total).toBe(4)
  expect((await personas({ 'x-mock-session': 'scenario-b' })).json.total, 'another session').toBe(4)
  const listed = (await call('/__mock/sessions')).json.sessions
  expect(listed.find((s: { key: string }) => s.key === 'scenario-a').scenario).toBe('empty-team,slow')
  await call('/__mock/reset', { method: 'POST', headers: session })
  expect((await call('/__mock/scenario', { headers: session })).json).toEqual({ scenarios: [] })
  expect((await personas(session)).json.total).toBe(4)
})

it('sets flaky and offline faults for a session', async () => {
  const session = { 'x-mock-session': 'faulty' }
  await call('/__mock/scenario', { method: 'PUT', headers: session, json: { scenarios: ['flaky'] } })
  expect((await call('/__mock/faults', { headers: session })).json).toEqual({ error: { status: 503, rate: 0.05 } })
  await call('/__mock/scenario', { method: 'PUT', headers: session, json: { scenarios: ['flaky', 'offline'] } })
  expect((await call('/__mock/faults', { headers: session })).json).toEqual({
    error: { status: 503, rate: 0.05 },
    drop: { rate: 1 },
  })
})

it('refuses unknown scenario names, listing the known ones', async () => {
  const perRequest = await personas({ 'x-mock-scenario': 'empty-team,nope' })
  expect(perRequest.status).toBe(400)
  expect(perRequest.json.detail).toMatch(/^Unknown scenario "nope"; known: empty-team, huge-team, .*offline/)
  const perSession = await call('/__mock/scenario', { method: 'PUT', json: { scenarios: ['nope', 'nada'] } })
  expect(perSession.status).toBe(400)
  expect(perSession.json.detail).toMatch(/^Unknown scenarios "nope", "nada"; known: /)
  expect((await call('/__mock/scenario', { method: 'PUT', json: { scenario: 'x' } })).status).toBe(400)
})

it('lets pages send X-Mock-Scenario across origins', async () => {
  const preflight = await call('/v1/personas/', {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization,x-mock-scenario',
    },
  })
  expect(preflight.status).toBe(200)
  expect(preflight.headers.get('access-control-allow-headers')).toContain('x-mock-scenario')
})

it('starts every world with --scenario, and a reset returns to it', async () => {
  const started = await startTestServer({ seed: 31, personasPerTeam: 4, scenario: ['empty-team'] })
  try {
    const on = http(started)
    const token = started.sessions.primary.fixtures.tokens.team_reader
    expect((await on('/v1/personas/', { token })).json.total).toBe(0)
    expect((await on('/v1/personas/', { token, headers: { 'x-mock-session': 'new' } })).json.total).toBe(0)
    await on('/__mock/reset', { method: 'POST' })
    expect((await on('/__mock/scenario')).json).toEqual({ scenarios: ['empty-team'] })
    expect((await on('/v1/personas/', { token })).json.total).toBe(0)
  } finally {
    await started.close()
  }
})

it('seeds 100,000 personas per team for huge-team', { timeout: 180_000 }, async () => {
  const session = { 'x-mock-session': 'huge' }
  await call('/__mock/scenario', { method: 'PUT', headers: session, json: { scenarios: ['huge-team'] } })
  expect((await personas(session)).json.total).toBe(100_000)
  expect((await personas()).json.total).toBe(4)
})
