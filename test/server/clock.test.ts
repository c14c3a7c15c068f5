import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
const NOW = '2026-03-01T09:00:00.000Z'
const NOW_SECONDS = Date.parse(NOW) / 1000
const fixtures = () => running.sessions.primary.fixtures

beforeAll(async () => {
  running = await startTestServer({ seed: 23, personasPerTeam: 3 })
  call = http(running)
})
beforeEach(() => call('/__mock/reset', { method: 'POST' }))
afterAll(() => running.close())

it('answers the clock: real time, running, until set', async () => {
  const { status, json } = await call('/__mock/clock')
  expect(status).toBe(200)
  expect(Object.keys(json)).toEqual(['now', 'epoch_seconds', 'frozen'])
  expect(json.frozen).toBe(false)
  expect(json.epoch_seconds).toBe(Math.floor(Date.parse(json.now) / 1000))
})

it('sets the clock from an ISO time or Unix seconds, freezes it and advances it', async () => {
  const set = await call('/__mock/clock', { method: 'PUT', json: { now: NOW, frozen: true } })
  expect(set).toMatchObject({ status: 200, json: { now: NOW, epoch_seconds: NOW_SECONDS, frozen: true } })
  const advanced = await call('/__mock/clock/advance', { method: 'POST', json: { seconds: 3600 } })
  expect(advanced.json).toEqual({ now: '2026-03-01T10:00:00.000Z', epoch_seconds: NOW_SECONDS + 3600, frozen: true })
  expect((await call('/__mock/clock')).json.epoch_seconds).toBe(NOW_SECONDS + 3600)
  const seconds = await call('/__mock/clock', { method: 'PUT', json: { now: NOW_SECONDS } })
  expect(seconds.json).toEqual({ now: NOW, epoch_seconds: NOW_SECONDS, frozen: true })
  const resumed = await call('/__mock/clock', { method: 'PUT', json: { frozen: false } })
  expect(resumed.json.frozen).toBe(false)
  expect(resumed.json.epoch_seconds).toBeGreaterThanOrEqual(NOW_SECONDS)
})

it('refuses bad bodies with 400 and leaves the clock as it was', async () => {
  await call('/__mock/clock', { method: 'PUT', json: { now: NOW, frozen: true } })
  const bad = [
    ['/__mock/clock', 'PUT', { now: 'soon' }, 'Not a time: "soon".'],
    // Date.parse would roll a day that does not exist over to the next month (2030-03-02).
    ['/__mock/clock', 'PUT', { now: '2030-02-30T00:00:00Z' }, 'Not a time: "2030-02-30T00:00:00Z".'],
    ['/__mock/clock', 'PUT', { now: -5 }, 'The clock runs from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z'],
    ['/__mock/clock', 'PUT', {}, 'body: give "now", "frozen" or both'],
    ['/__mock/clock', 'PUT', { now: NOW, frozen: 'yes' }, 'frozen: '],
    ['/__mock/clock', 'PUT', { now: NOW, speed: 2 }, 'body: Unrecognized key: "speed"'],
    ['/__mock/clock/advance', 'POST', { seconds: -1 }, 'seconds: '],
    ['/__mock/clock/advance', 'POST', { seconds: '60' }, 'seconds: '],
    ['/__mock/clock/advance', 'POST', { seconds: 1e15 }, 'The clock runs from'],
  ] as const
  for (const [path, method, json, detail] of bad) {
    const answer = await call(path, { method, json })
    expect(answer.status, JSON.stringify(json)).toBe(400)
    expect(answer.json.detail, JSON.stringify(json)).toContain(detail)
  }
  expect((await call('/__mock/clock', { method: 'PUT', body: '{' })).json).toEqual({
    detail: 'The body is not valid JSON',
  })
  expect((await call('/__mock/clock')).json).toEqual({ now: NOW, epoch_seconds: NOW_SECONDS, frozen: true })
})

it('expires a token once the clock is advanced past its exp: 401 as the API answers', async () => {
  await call('/__mock/clock', { method: 'PUT', json: { now: NOW, frozen: true } })
  const minted = await call('/__mock/tokens', {
    method: 'POST',
    json: { sub: 'u', team_id: fixtures().teams[0]!.id, permissions: ['persona:read'] },
  })
  const claims = JSON.parse(Buffer.from(minted.json.token.split('.')[1], 'base64url').toString())
  expect(claims).toMatchObject({ iat: NOW_SECONDS, exp: NOW_SECONDS + 86_400 })
  expect((await call('/v1/personas/', { token: minted.json.token })).status).toBe(200)
  await call('/__mock/clock/advance', { method: 'POST', json: { seconds: 86_400 } })
  const expired = await call('/v1/personas/', { token: minted.json.token })
  expect(expired).toMatchObject({ status: 401, text: '{"detail":"Could not validate credentials"}' })
  expect(expired.headers.get('www-authenticate')).toBe('Bearer')
})

it('stamps a bulk add with the clock, and keeps each session’s clock apart', async () => {
  const session = { 'x-mock-session': 'clock-a' }
  await call('/__mock/clock', { method: 'PUT', headers: session, json: { now: NOW, frozen: true } })
  expect((await call('/__mock/clock')).json.frozen).toBe(false)
  const added = await call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    headers: session,
    token: fixtures().tokens.super_admin,
    json: { values: [{ value: 'stamped' }] },
  })
  expect(added.status).toBe(201)
  expect(added.json[0].created_at).toBe(NOW_SECONDS)
  await call('/__mock/reset', { method: 'POST', headers: session })
  expect((await call('/__mock/clock', { headers: session })).json.frozen).toBe(false)
})
