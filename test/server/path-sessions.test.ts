/**
 * Sessions in the path (issue #15 part 6): `/__session/<key>/v1/...` and `/__session/<key>/__mock/...`
 * answer as the same request with `X-Mock-Session: <key>`, for frameworks that fetch on the
 * server (Next.js server components, Remix loaders) and cannot send a header per test.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 23, personasPerTeam: 6 })
  call = http(running)
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const valuesPath = () => `/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`
const addValue = (value: string, prefix = '', headers: Record<string, string> = {}) =>
  call(prefix + valuesPath(), {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    json: { values: [{ value }] },
    headers,
  })
const values = async (prefix = '', headers: Record<string, string> = {}) => {
  const state = await call(`${prefix}/__mock/state`, { headers })
  expect(state.status).toBe(200)
  return (state.json.world.values as Array<{ value: string }>).map((v) => v.value)
}

it('answers a path session as the same request with X-Mock-Session: one world per key', async () => {
  expect((await addValue('path-write', '/__session/ssr-1')).status).toBe(201)
  expect(await values('', { 'x-mock-session': 'ssr-1' }), 'the header names the same world').toContain('path-write')
  expect((await addValue('header-write', '', { 'x-mock-session': 'ssr-1' })).status).toBe(201)
  expect(await values('/__session/ssr-1')).toEqual(expect.arrayContaining(['path-write', 'header-write']))
  expect(await values('/__session/ssr-2'), 'another path session').not.toContain('path-write')
  expect(await values(), 'the default world').not.toContain('path-write')
})

it('answers the API under the prefix byte for byte as without it', async () => {
  const token = fixtures().tokens.team_reader
  const plain = await call('/v1/personas/?limit=3', { token, headers: { 'x-mock-session': 'bytes' } })
  const prefixed = await call('/__session/bytes/v1/personas/?limit=3', { token })
  expect(prefixed.status).toBe(200)
  expect(prefixed.text).toBe(plain.text)
  expect(prefixed.headers.get('content-length')).toBe(plain.headers.get('content-length'))
})

it('drives the control API of the path session: reset, faults, fixtures, sessions', async () => {
  const reset = await call('/__session/ctl/__mock/reset', { method: 'POST', json: {} })
  expect(reset.status).toBe(200)
  const faults = await call('/__session/ctl/__mock/faults', { method: 'PUT', json: { error: { status: 503 } } })
  expect(faults.status).toBe(200)
  const token = fixtures().tokens.team_reader
  expect((await call('/__session/ctl/v1/personas/', { token })).status).toBe(503)
  expect((await call('/v1/personas/', { token, headers: { 'x-mock-session': 'ctl' } })).status).toBe(503)
  expect((await call('/v1/personas/', { token })).status, 'the default world has no fault').toBe(200)
  const listed = await call('/__mock/sessions')
  expect(listed.json.sessions.map((s: { key: string }) => s.key)).toContain('ctl')
  expect((await call('/__mock/sessions/ctl', { method: 'DELETE' })).status).toBe(204)
  expect((await call('/__session/ctl/v1/personas/', { token })).status, 'dropped: starts over').toBe(200)
})

it('keeps the prefix in the 307 trailing-slash redirect, the query included', async () => {
  const token = fixtures().tokens.team_reader
  const res = await call('/__session/redir/v1/personas?limit=2&intents=a%20b', { token })
  expect(res.status).toBe(307)
  expect(res.headers.get('location')).toBe(`${running.url}/__session/redir/v1/personas/?limit=2&intents=a%20b`)
  const followed = await fetch(res.headers.get('location')!, { headers: { authorization: `Bearer ${token}` } })
  expect(followed.status).toBe(200)
})

it('answers 404 and 405 inside the prefix as FastAPI does', async () => {
  const notFound = await call('/__session/routes/v1/nope')
  expect([notFound.status, notFound.text]).toEqual([404, '{"detail":"Not Found"}'])
  const bare = await call('/__session/routes')
  expect([bare.status, bare.text]).toEqual([404, '{"detail":"Not Found"}'])
  const notAllowed = await call('/__session/routes/v1/personas/', { method: 'DELETE' })
  expect([notAllowed.status, notAllowed.text, notAllowed.headers.get('allow')]).toEqual([
    405,
    '{"detail":"Method Not Allowed"}',
    'GET',
  ])
  const control = await call('/__session/routes/__mock/nope')
  expect(control.status).toBe(404)
})

it('journals what was requested: the prefixed path, and the location in the HAR', async () => {
  const token = fixtures().tokens.team_reader
  await call('/__session/journal/v1/personas?limit=1', { token })
  await call('/__session/journal/v1/personas/?limit=1', { token })
  const journal = await call('/__session/journal/__mock/requests')
  expect(journal.json.requests.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
    ['/__session/journal/v1/personas', 307],
    ['/__session/journal/v1/personas/', 200],
  ])
  const filtered = await call('/__mock/requests?path=/v1/personas/', { headers: { 'x-mock-session': 'journal' } })
  expect(filtered.json.requests).toHaveLength(1)
  const har = await call('/__session/journal/__mock/requests.har')
  const [redirect, page] = har.json.log.entries
  expect(redirect.request.url).toBe(`${running.url}/__session/journal/v1/personas?limit=1`)
  expect(redirect.response.redirectURL).toBe(`${running.url}/__session/journal/v1/personas/?limit=1`)
  expect(page.request.url).toBe(`${running.url}/__session/journal/v1/personas/?limit=1`)
})

it('refuses a malformed key in the path with 400, as in the header', async () => {
  for (const key of ['has%20space', '', 'x'.repeat(129), 'a%2Fb', 'caf%C3%A9']) {
    const res = await call(`/__session/${key}/v1/personas/`)
    expect(res.status, key).toBe(400)
    expect(res.json.detail).toBe(
      'Invalid session key in the path (/__session/<key>/...): use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -',
    )
  }
  expect((await call(`/__session/${'x'.repeat(128)}/v1/personas/`)).status, '128 characters').toBe(401)
  expect((await call('/__session/has%20space/__mock/fixtures')).status).toBe(400)
})

it('lets the path name the session when a header names another', async () => {
  expect((await addValue('path-wins', '/__session/winner', { 'x-mock-session': 'loser' })).status).toBe(201)
  expect(await values('/__session/winner')).toContain('path-wins')
  expect(await values('/__session/loser')).not.toContain('path-wins')
  expect(await values('', { cookie: 'mock_session=loser' })).not.toContain('path-wins')
})

it('starts a path session from a snapshot with X-Mock-Session-From', async () => {
  expect((await addValue('arranged-value', '/__session/arrange')).status).toBe(201)
  const taken = await call('/__session/arrange/__mock/snapshots', { method: 'POST', json: { name: 'ssr-start' } })
  expect(taken.status).toBe(201)
  const from = { 'x-mock-session-from': 'ssr-start' }
  expect(await values('/__session/from-snap', from)).toContain('arranged-value')
  expect((await addValue('only-from-snap', '/__session/from-snap')).status).toBe(201)
  expect(await values('/__session/arrange')).not.toContain('only-from-snap')
  const unknown = await call('/__session/from-nothing/__mock/state', { headers: { 'x-mock-session-from': 'nope' } })
  expect(unknown.status).toBe(404)
  const listed = await call('/__mock/sessions')
  expect(listed.json.sessions.map((s: { key: string }) => s.key)).not.toContain('from-nothing')
})
