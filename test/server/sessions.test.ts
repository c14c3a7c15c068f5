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

it('refuses a malformed session key with 400', async () => {
  const res = await call('/v1/personas/', { headers: { 'x-mock-session': 'has space' } })
  expect(res.status).toBe(400)
  expect(res.json.detail).toContain('x-mock-session')
})
