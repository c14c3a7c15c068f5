import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 14, personasPerTeam: 10, sessionLimit: 2 })
  call = http(running)
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const addValue = (value: string, headers: Record<string, string> = {}) =>
  call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    json: { values: [{ value }] },
    headers,
  })
const valuesSeen = async (headers: Record<string, string> = {}) => {
  const state = await call('/__mock/state', { headers })
  return (state.json.world.values as Array<{ value: string }>).map((v) => v.value)
}

it('gives each session its own copy of the seeded world', async () => {
  expect((await addValue('only-a', { 'x-mock-session': 'worker-a' })).status).toBe(201)
  expect(await valuesSeen({ 'x-mock-session': 'worker-a' })).toContain('only-a')
  expect(await valuesSeen({ 'x-mock-session': 'worker-b' })).not.toContain('only-a')
  expect(await valuesSeen()).not.toContain('only-a')
  const sessionFixtures = await call('/__mock/fixtures', { headers: { 'x-mock-session': 'worker-b' } })
  expect(sessionFixtures.json.teams).toEqual(fixtures().teams)
})

it('keeps resets and faults inside their session', async () => {
  await addValue('default-value')
  await call('/__mock/reset', { method: 'POST', headers: { 'x-mock-session': 'worker-a' } })
  await call('/__mock/faults', {
    method: 'PUT',
    json: { error: { status: 503 } },
    headers: { 'x-mock-session': 'worker-a' },
  })
  expect(await valuesSeen()).toContain('default-value')
  expect(
    (await call('/v1/personas/', { token: fixtures().tokens.team_reader, headers: { 'x-mock-session': 'worker-a' } }))
      .status,
  ).toBe(503)
  expect((await call('/v1/personas/', { token: fixtures().tokens.team_reader })).status).toBe(200)
})

it('reads the session from the mock_session cookie too', async () => {
  await addValue('cookie-value', { cookie: 'theme=dark; mock_session=cookie-worker' })
  expect(await valuesSeen({ cookie: 'mock_session=cookie-worker' })).toContain('cookie-value')
  expect(await valuesSeen()).not.toContain('cookie-value')
})

it('drops the least recently used session past the limit', async () => {
  await addValue('first', { 'x-mock-session': 's1' })
  await addValue('second', { 'x-mock-session': 's2' })
  await addValue('third', { 'x-mock-session': 's3' })
  expect(running.sessions.size).toBe(2)
  expect(await valuesSeen({ 'x-mock-session': 's1' }), 's1 was evicted and starts over').not.toContain('first')
})

it('refuses a malformed session key with 400, naming the header or the cookie it came from', async () => {
  const res = await call('/v1/personas/', { headers: { 'x-mock-session': 'has space' } })
  expect(res.status).toBe(400)
  expect(res.json.detail).toContain('x-mock-session')
  const fromCookie = await call('/v1/personas/', { headers: { cookie: 'mock_session=has%20space' } })
  expect([fromCookie.status, fromCookie.json.detail]).toEqual([
    400,
    'Invalid mock_session cookie: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -',
  ])
})

it('takes an empty mock_session cookie, as a page clears one, for no session: the default world', async () => {
  await addValue('seen-by-default', {})
  for (const cookie of ['mock_session=', 'mock_session', 'theme=dark; mock_session=; other=1'])
    expect(await valuesSeen({ cookie }), cookie).toContain('seen-by-default')
})

it('keeps the total the journals and recorded contracts hold right across growth, eviction and drops', async () => {
  const sessions = running.sessions
  // What the total must be: the sum over the default instance and the sessions kept (once recordings settled).
  const recounted = async () =>
    [sessions.primary, ...(await sessions.list()).map((kept) => kept.instance)].reduce(
      (sum, { journal, recorder }) => sum + journal.bytes + recorder.bytes,
      0,
    )
  const offBy = async () => sessions.heldBytes - (await recounted())
  const list = (key: string) =>
    call(`/v1/personas/?limit=1&search=${key}`, {
      token: fixtures().tokens.team_reader,
      headers: { 'x-mock-session': key },
    })
  const before = sessions.heldBytes
  for (const key of ['held-a', 'held-b']) expect((await list(key)).status).toBe(200)
  await expect.poll(offBy).toBe(0)
  expect(sessions.heldBytes, 'grew with the requests').toBeGreaterThan(before)
  expect((await list('held-c')).status).toBe(200)
  expect(sessions.has('held-a'), 'past the limit of 2').toBe(false)
  await expect.poll(offBy, { message: 'the evicted session no longer counted' }).toBe(0)
  expect((await call('/__mock/sessions/held-b', { method: 'DELETE' })).status).toBe(204)
  await expect.poll(offBy, { message: 'the dropped session no longer counted' }).toBe(0)
  const inC = { 'x-mock-session': 'held-c' }
  expect((await call('/__mock/requests', { method: 'DELETE', headers: inC })).status).toBe(204)
  expect((await call('/__mock/contract', { method: 'DELETE', headers: inC })).status).toBe(204)
  await expect.poll(offBy, { message: 'a cleared journal and contract no longer counted' }).toBe(0)
  expect((await list('held-c')).status).toBe(200)
  await expect.poll(offBy).toBe(0)
})
