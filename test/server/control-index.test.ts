import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 21, personasPerTeam: 5, sessionLimit: 2 })
  call = http(running)
})
afterAll(() => running.close())

interface Listed {
  method: string
  path: string
  description: string
}

it('lists every control route with its method, path and a one-line description', async () => {
  const index = await call('/__mock/')
  expect(index.status).toBe(200)
  expect(index.headers.get('content-type')).toBe('application/json')
  const routes = index.json.routes as Listed[]
  expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
    expect.arrayContaining([
      'GET /__mock/',
      'GET /__mock/health',
      'GET /__mock/fixtures',
      'POST /__mock/reset',
      'POST /__mock/tokens',
      'GET /__mock/faults',
      'PUT /__mock/faults',
      'GET /__mock/requests',
      'DELETE /__mock/requests',
      'GET /__mock/requests.har',
      'GET /__mock/state',
      'PUT /__mock/state',
      'GET /__mock/sessions',
      'DELETE /__mock/sessions/{key}',
    ]),
  )
  for (const route of routes) {
    expect(Object.keys(route)).toEqual(['method', 'path', 'description'])
    expect(route.description, route.path).toMatch(/^[^\n]{10,160}$/)
  }
  expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size, 'no route twice').toBe(routes.length)
})

it('answers every route it lists (the list is the route table, so it cannot drift)', async () => {
  const { json } = await call('/__mock/')
  for (const { method, path } of json.routes as Listed[]) {
    const res = await call(path.replace('{key}', 'listed-key'), {
      method,
      body: method === 'POST' || method === 'PUT' ? '{}' : undefined,
    })
    expect([method, path, res.status === 405 || res.text === '{"detail":"Not Found"}']).toEqual([method, path, false])
  }
})

it('answers HEAD on the list, 405 with allow for another method, 404 for an unknown path', async () => {
  const head = await call('/__mock/', { method: 'HEAD' })
  expect([head.status, head.text]).toEqual([200, ''])
  const post = await call('/__mock/', { method: 'POST', json: {} })
  expect([post.status, post.headers.get('allow'), post.text]).toEqual([
    405,
    'GET, HEAD',
    '{"detail":"Method Not Allowed"}',
  ])
  const patch = await call('/__mock/requests', { method: 'PATCH', json: {} })
  expect([patch.status, patch.headers.get('allow')]).toEqual([405, 'GET, HEAD, DELETE'])
  expect((await call('/__mock/sessions/some-key')).headers.get('allow'), 'one session can only be dropped').toBe(
    'DELETE',
  )
  expect((await call('/__mock/nothing/here')).text).toBe('{"detail":"Not Found"}')
})

it('lists sessions least recently used first, with scenario, last use and writes, without creating one', async () => {
  const { fixtures } = running.sessions.primary
  const session = (key: string) => ({ 'x-mock-session': key })
  const bulk = `/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`
  const add = (key: string, value: string, token = fixtures.tokens.super_admin) =>
    call(bulk, { method: 'POST', token, json: { values: [{ value }] }, headers: session(key) })
  expect((await add('alpha', 'one')).status).toBe(201)
  expect((await add('alpha', 'two')).status).toBe(201)
  expect((await add('alpha', 'refused', fixtures.tokens.team_reader)).status, 'a refused write').toBe(403)
  expect((await call('/v1/personas/', { token: fixtures.tokens.team_reader, headers: session('beta') })).status).toBe(
    200,
  )
  await call('/__mock/fixtures', { headers: session('alpha') }) // alpha is now the most recently used
  const listed = await call('/__mock/sessions', { headers: session('not-created') })
  expect(listed.status).toBe(200)
  expect(listed.json.limit).toBe(2)
  expect(listed.json.sessions).toEqual([
    { key: 'beta', scenario: null, last_used: expect.any(String), writes: 0 },
    { key: 'alpha', scenario: null, last_used: expect.any(String), writes: 2 },
  ])
  const [beta, alpha] = listed.json.sessions as Array<{ last_used: string }>
  expect(new Date(alpha!.last_used).toISOString()).toBe(alpha!.last_used)
  expect(Date.parse(alpha!.last_used)).toBeGreaterThanOrEqual(Date.parse(beta!.last_used))
  expect(running.sessions.size, 'listing named no session into being').toBe(2)
})

it('drops a session, which then starts over, and answers 404 for one it does not keep', async () => {
  const { fixtures } = running.sessions.primary
  const headers = { 'x-mock-session': 'gamma' }
  const bulk = `/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`
  await call(bulk, { method: 'POST', token: fixtures.tokens.super_admin, json: { values: [{ value: 'g' }] }, headers })
  const values = async () =>
    ((await call('/__mock/state', { headers })).json.world.values as Array<{ value: string }>).map((v) => v.value)
  expect(await values()).toContain('g')
  const dropped = await call('/__mock/sessions/gamma', { method: 'DELETE', headers })
  expect([dropped.status, dropped.text]).toEqual([204, ''])
  const keys = (await call('/__mock/sessions')).json.sessions.map((s: { key: string }) => s.key)
  expect(keys).not.toContain('gamma')
  expect(await values(), 'a new world for the same key').not.toContain('g')
  await call('/__mock/sessions/gamma', { method: 'DELETE' })
  const unknown = await call('/__mock/sessions/gamma', { method: 'DELETE' })
  expect([unknown.status, unknown.text]).toEqual([404, '{"detail":"No session named \\"gamma\\""}'])
  expect((await call('/__mock/sessions/', { method: 'DELETE' })).text).toBe('{"detail":"Not Found"}')
})

it("resets to the server's configured seed and size when no option is given, not the last reset's", async () => {
  const personas = async (token: string, headers: Record<string, string> = {}) =>
    (await call('/v1/personas/?limit=100', { token, headers })).json.total as number
  const other = await call('/__mock/reset', { method: 'POST', json: { seed: 22, personas: 3 } })
  expect([other.json.seed, await personas(other.json.tokens.team_reader)]).toEqual([22, 3])
  const session = { 'x-mock-session': 'after-reseed' } // created from the default world's current seed and size
  expect((await call('/__mock/fixtures', { headers: session })).json.seed).toBe(22)
  for (const body of [undefined, '{}']) {
    await call('/__mock/reset', { method: 'POST', json: { seed: 22, personas: 3 } })
    const back = await call('/__mock/reset', { method: 'POST', body })
    expect([back.status, back.json.seed, await personas(back.json.tokens.team_reader)]).toEqual([200, 21, 5])
  }
  const sized = await call('/__mock/reset', { method: 'POST', json: { personas: 2 } })
  expect(
    [sized.json.seed, await personas(sized.json.tokens.team_reader)],
    'the seed left out: the configured one',
  ).toEqual([21, 2])
  const sessionBack = await call('/__mock/reset', { method: 'POST', headers: session })
  expect([sessionBack.json.seed, await personas(sessionBack.json.tokens.team_reader, session)]).toEqual([21, 5])
  await call('/__mock/reset', { method: 'POST' })
})
