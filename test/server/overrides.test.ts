/**
 * Typed overrides over the control API: `PUT /__mock/overrides/{operation}` with JSON, per session,
 * answered over real HTTP with the bytes the API's own path writes.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
const fixtures = () => running.sessions.primary.fixtures
const token = () => fixtures().tokens.team_reader
const put = (operation: string, json: unknown, headers: Record<string, string> = {}) =>
  call(`/__mock/overrides/${operation}`, { method: 'PUT', json, headers })
/** Headers but the date, which moves. */
const headersOf = (headers: Headers) => [...headers].filter(([name]) => name !== 'date')

beforeAll(async () => {
  running = await startTestServer({ seed: 29, personasPerTeam: 4 })
  call = http(running)
})
beforeEach(() => call('/__mock/overrides', { method: 'DELETE' }))
afterAll(() => running.close())

it('answers a body equal to the real answer with the same bytes and headers', async () => {
  const real = await call('/v1/personas/?limit=2', { token: token() })
  const set = await put('list_personas', { status: 200, body: real.json })
  expect(set.status).toBe(200)
  expect(set.json.overrides.list_personas).toEqual({ status: 200, body: real.json })
  const overridden = await call('/v1/personas/?limit=2', { token: token() })
  expect(overridden.text).toBe(real.text)
  expect(headersOf(overridden.headers)).toEqual(headersOf(real.headers))
})

it('answers the error shapes as FastAPI does', async () => {
  await put('list_policy_rules', { error: 'not_found' })
  const rules = await call(`/v1/policies/${fixtures().policies[0]!.id}/rules`, { token: token() })
  expect([rules.status, rules.text]).toEqual([404, '{"detail":"Policy not found"}'])
  await put('list_personas', { error: 'not_authenticated' })
  const personas = await call('/v1/personas/', { token: token() })
  expect([personas.status, personas.text, personas.headers.get('www-authenticate')]).toEqual([
    401,
    '{"detail":"Not authenticated"}',
    'Bearer',
  ])
})

it('lists the overrides, and drops one or all', async () => {
  await put('list_personas', { error: 'forbidden' })
  await put('list_policy_rules', { error: 'not_found', detail: 'Nope' })
  expect((await call('/__mock/overrides')).json).toEqual({
    overrides: { list_personas: { error: 'forbidden' }, list_policy_rules: { error: 'not_found', detail: 'Nope' } },
  })
  expect((await call('/__mock/overrides/list_personas', { method: 'DELETE' })).status).toBe(204)
  expect((await call('/v1/personas/', { token: token() })).status).toBe(200)
  expect(Object.keys((await call('/__mock/overrides')).json.overrides)).toEqual(['list_policy_rules'])
  expect((await call('/__mock/overrides', { method: 'DELETE' })).status).toBe(204)
  expect((await call('/__mock/overrides')).json).toEqual({ overrides: {} })
})

it('keeps each session’s overrides to itself', async () => {
  const session = { 'x-mock-session': 'overrides-a' }
  await put('list_personas', { error: 'forbidden' }, session)
  const own = await call('/v1/personas/', { token: token(), headers: session })
  expect(own.status).toBe(403)
  expect((await call('/v1/personas/', { token: token() })).status).toBe(200)
  const other = { 'x-mock-session': 'overrides-b' }
  expect((await call('/v1/personas/', { token: token(), headers: other })).status).toBe(200)
  expect((await call('/__mock/overrides', { headers: other })).json).toEqual({ overrides: {} })
})

it('refuses bad bodies with 400 naming the problem, and unknown operations with 404', async () => {
  const bad = [
    [{ status: 200, body: { results: [{}], total: 1 } }, 'body.results.0.id: '],
    [{ status: 299, body: {} }, 'status: 299 is not an answer of list_personas'],
    [{ error: 'teapot' }, 'error: '],
    [{ status: 200 }, 'body: give the body to answer'],
    [[1], 'give {"status", "body"}, {"error"} or a function of the request'],
    [{ body: { results: [], total: 0 }, headers: { 'x-a': 'a\nb' } }, 'a header value holds tabs, visible ASCII'],
    [{ body: { results: [], total: 0 }, headers: { connection: 'keep-alive' } }, 'the server writes connection'],
    [{ body: { results: [], total: 0 }, headers: { 'Proxy-Connection': 'close' } }, 'proxy-connection, te'],
  ] as const
  for (const [json, problem] of bad) {
    const answered = await put('list_personas', json)
    expect(answered.status, JSON.stringify(json)).toBe(400)
    expect(answered.json.detail, JSON.stringify(json)).toContain(problem)
  }
  const notJson = await call('/__mock/overrides/list_personas', { method: 'PUT', body: '{' })
  expect([notJson.status, notJson.json.detail]).toEqual([400, 'The body is not valid JSON'])
  const unknown = await put('list_people', { error: 'not_found' })
  expect(unknown.status).toBe(404)
  expect(unknown.json.detail).toBe(
    'No operation named "list_people"; known: list_personas, bulk_add_values, list_policy_rules',
  )
  expect((await call('/__mock/overrides')).json).toEqual({ overrides: {} })
})

it('lists the override routes in the control index', async () => {
  const { json } = await call('/__mock/')
  const routes = json.routes.map((route: { method: string; path: string }) => `${route.method} ${route.path}`)
  expect(routes).toEqual(
    expect.arrayContaining([
      'GET /__mock/overrides',
      'PUT /__mock/overrides/{operation}',
      'DELETE /__mock/overrides',
      'DELETE /__mock/overrides/{operation}',
    ]),
  )
})
