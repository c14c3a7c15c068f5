import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

const JSON_BODY = { 'content-type': 'application/json' }

let running: RunningServer
let call: ReturnType<typeof http>
const fixtures = () => running.sessions.primary.fixtures
const bulkPath = () => `/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`

beforeAll(async () => {
  running = await startTestServer({ seed: 13, journalSize: 5 })
  call = http(running)
})
beforeEach(async () => {
  await call('/__mock/reset', { method: 'POST', json: { seed: 13, personas: 60 } })
  await call('/__mock/requests', { method: 'DELETE' })
})
afterAll(() => running.close())

it('reports health', async () => {
  expect(await call('/__mock/health')).toMatchObject({ status: 200, text: '{"status":"ok"}' })
})

it('lists fixtures: seed, teams, dimensions, policies and a token per role', async () => {
  const { json } = await call('/__mock/fixtures')
  expect(Object.keys(json)).toEqual(['seed', 'teams', 'dimensions', 'policies', 'tokens'])
  expect(json.seed).toBe(13)
  expect(Object.keys(json.teams[0])).toEqual(['id', 'name'])
  expect(Object.keys(json.policies[0])).toEqual(['id', 'team_id', 'name'])
  expect(json.policies[0].team_id).toBe(json.teams[0].id)
  expect(Object.keys(json.tokens)).toEqual([
    'super_admin',
    'team_reader',
    'persona_reader',
    'no_permissions',
    'expired',
  ])
  const listed = await call('/v1/personas/', { token: json.tokens.team_reader })
  expect(listed.json.results.every((p: { team_id: string }) => p.team_id === json.teams[0].id)).toBe(true)
})

it('resets to a freshly seeded world, optionally with another seed and size', async () => {
  await call(bulkPath(), {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    json: { values: [{ value: 'temporary' }] },
  })
  const count = () => running.sessions.primary.world.values.all().filter((v) => v.value === 'temporary').length
  expect(count()).toBe(1)
  const reset = await call('/__mock/reset', { method: 'POST' })
  expect(reset.status).toBe(200)
  expect(count()).toBe(0)
  const reseeded = await call('/__mock/reset', { method: 'POST', json: { seed: 99, personas: 4 } })
  expect(reseeded.json.seed).toBe(99)
  const listed = await call('/v1/personas/', { token: reseeded.json.tokens.team_reader })
  expect(listed.json.total).toBe(4)
  const invalid = await call('/__mock/reset', { method: 'POST', json: { personas: -1 } })
  expect(invalid.status).toBe(400)
  expect(invalid.json.detail).toContain('personas')
})

it('mints tokens from claims, and refuses claims without sub', async () => {
  const minted = await call('/__mock/tokens', {
    method: 'POST',
    json: { sub: 'me', team_id: fixtures().teams[1]!.id, permissions: ['persona:read'] },
  })
  const listed = await call('/v1/personas/?limit=1', { token: minted.json.token })
  expect(listed.json.results[0].team_id).toBe(fixtures().teams[1]!.id)
  const refused = await call('/__mock/tokens', { method: 'POST', json: { team_id: 'x' } })
  expect([refused.status, refused.json.detail]).toEqual([400, expect.stringContaining('sub')])
  const notJson = await call('/__mock/tokens', {
    method: 'POST',
    body: '{',
    headers: { 'content-type': 'application/json' },
  })
  expect([notJson.status, notJson.text]).toEqual([400, '{"detail":"The body is not valid JSON"}'])
})

it('injects faults per operation, and reset clears them', async () => {
  const token = fixtures().tokens.team_reader
  const rules = `/v1/policies/${fixtures().policies[0]!.id}/rules`
  const set = await call('/__mock/faults', {
    method: 'PUT',
    json: { latency: 120, operations: { list_policy_rules: { error: { status: 503 } } } },
  })
  expect(set.json).toEqual({ latency: 120, operations: { list_policy_rules: { error: { status: 503, rate: 1 } } } })
  expect((await call('/__mock/faults')).json).toEqual(set.json)
  const failed = await call(rules, { token })
  expect([failed.status, failed.text]).toEqual([503, '{"detail":"Service Unavailable"}'])
  // The journal's duration (arrival to answer) holds the wait: a lower bound, which load never breaks.
  const [entry] = (await call('/__mock/requests?path=/rules&limit=1')).json.requests
  expect(entry.status).toBe(503)
  expect(entry.duration_ms, 'the 120 ms latency was waited').toBeGreaterThanOrEqual(119)
  expect((await call('/v1/personas/', { token })).status).toBe(200)
  await call('/__mock/reset', { method: 'POST' })
  expect((await call('/__mock/faults')).text).toBe('{}')
  expect((await call(rules, { token })).status).toBe(200)
})

it('applies an error rate and a latency range', async () => {
  await call('/__mock/faults', {
    method: 'PUT',
    json: { latency: { min: 0, max: 5 }, error: { status: 500, rate: 0.5 } },
  })
  const statuses = await Promise.all(
    Array.from({ length: 200 }, () =>
      call('/v1/personas/', { token: fixtures().tokens.team_reader }).then((r) => r.status),
    ),
  )
  const failures = statuses.filter((status) => status === 500).length
  expect(failures).toBeGreaterThan(50)
  expect(failures).toBeLessThan(150)
  expect(statuses.every((status) => status === 200 || status === 500)).toBe(true)
})

it('refuses an invalid faults configuration with a message', async () => {
  const res = await call('/__mock/faults', { method: 'PUT', json: { error: { status: 200 } } })
  expect(res.status).toBe(400)
  expect(res.json.detail).toContain('error.status')
})

it('keeps a bounded, filterable journal of requests', async () => {
  const token = fixtures().tokens.team_reader
  await call('/v1/personas/?limit=2', { token })
  await call('/v1/personas/?limit=0', { token })
  await call('/v1/nope')
  const { json } = await call('/__mock/requests')
  expect(
    json.requests.map((r: { method: string; path: string; query: string; status: number }) => [
      r.method,
      r.path,
      r.query,
      r.status,
    ]),
  ).toEqual([
    ['GET', '/v1/personas/', 'limit=2', 200],
    ['GET', '/v1/personas/', 'limit=0', 422],
    ['GET', '/v1/nope', '', 404],
  ])
  expect(typeof json.requests[0].duration_ms).toBe('number')
  expect((await call('/__mock/requests?status=422')).json.requests).toHaveLength(1)
  expect((await call('/__mock/requests?path=nope&method=get')).json.requests).toHaveLength(1)
  expect((await call('/__mock/requests?limit=1')).json.requests[0].path).toBe('/v1/nope')
  for (let i = 0; i < 6; i++) await call('/v1/nope')
  expect((await call('/__mock/requests')).json.requests, 'bounded to journalSize').toHaveLength(5)
  expect((await call('/__mock/requests', { method: 'DELETE' })).status).toBe(204)
  expect((await call('/__mock/requests')).json.requests).toEqual([])
})

it('exports the state and imports it back, refusing an invalid one', async () => {
  const raw = '{"values":[{"value":"kept","metadata":{"b":1,"a":2.0}}]}'
  await call(bulkPath(), {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    body: raw,
    headers: { 'content-type': 'application/json' },
  })
  const exported = await call('/__mock/state')
  expect(exported.status).toBe(200)
  expect(exported.json.format).toBe('agent-console-mock/state')
  await call('/__mock/reset', { method: 'POST' })
  const refused = await call('/__mock/state', {
    method: 'PUT',
    body: '{"format":"agent-console-mock/state","version":1,"seed":1,"personasPerTeam":1,"world":{"teams":[{"id":"nope"}]}}',
  })
  expect(refused.status).toBe(400)
  expect(refused.json.detail).toMatch(/^Invalid state: .*world\.teams\.0/)
  expect((await call('/__mock/state', { method: 'PUT', body: 'not json', headers: JSON_BODY })).status).toBe(400)
  const imported = await call('/__mock/state', { method: 'PUT', body: exported.text, headers: JSON_BODY })
  expect(imported.status).toBe(200)
  const values = await call('/__mock/state')
  expect(values.text).toBe(exported.text)
  expect(values.text).toContain('"value_metadata":{"b":1,"a":2.0}')
})

it('answers unknown control paths with 404', async () => {
  expect((await call('/__mock/nothing')).status).toBe(404)
})

it('keeps the control API out of a server started without it', async () => {
  const closed = await startTestServer({ control: false })
  try {
    const res = await http(closed)('/__mock/fixtures')
    expect([res.status, res.text]).toEqual([404, '{"detail":"The control API is switched off (--no-control)"}'])
  } finally {
    await closed.close()
  }
})
