import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
const NOW = '2026-03-01T09:00:00.000Z'
const NOW_SECONDS = Date.parse(NOW) / 1000

beforeAll(async () => {
  mock = await createMockServer({ seed: 22, personasPerTeam: 3 })
  api = client(mock)
})
afterEach(() => mock.reset())
afterAll(() => mock.close())

it('takes what Playwright’s page.clock takes: a Date, milliseconds, a date string', () => {
  expect(mock.clock.freeze(new Date(NOW)).now().toISOString()).toBe(NOW)
  expect(
    mock.clock
      .freeze(Date.parse(NOW) + 1500)
      .now()
      .toISOString(),
  ).toBe('2026-03-01T09:00:01.500Z')
  expect(mock.clock.set('2026-03-01T10:00:00Z').state()).toEqual({
    now: '2026-03-01T10:00:00.000Z',
    epoch_seconds: NOW_SECONDS + 3600,
    frozen: true,
  })
})

it('moves a frozen clock only when advanced, and stays frozen', () => {
  mock.clock.freeze(NOW)
  mock.clock.advance(90.5)
  expect(mock.clock.state()).toEqual({ now: '2026-03-01T09:01:30.500Z', epoch_seconds: NOW_SECONDS + 90, frozen: true })
})

it('runs on from a time set without freezing, and from where a frozen clock resumes', () => {
  mock.clock.set(NOW, { frozen: false })
  expect(mock.clock.frozen).toBe(false)
  expect(mock.clock.nowMs()).toBeGreaterThanOrEqual(Date.parse(NOW))
  mock.clock.freeze(NOW).resume()
  expect(mock.clock.frozen).toBe(false)
  expect(mock.clock.nowMs()).toBeGreaterThanOrEqual(Date.parse(NOW))
})

it('refuses times it cannot keep, and going back by advancing', () => {
  mock.clock.freeze(NOW)
  expect(() => mock.clock.set('not a date')).toThrow('Not a time: "not a date".')
  expect(() => mock.clock.set('2030-02-29')).toThrow('Not a time: "2030-02-29".')
  expect(() => mock.clock.set(-1)).toThrow(RangeError)
  expect(() => mock.clock.set('+010000-01-01T00:00:00Z')).toThrow(/9999/)
  expect(() => mock.clock.advance(-1)).toThrow('non-negative')
  expect(() => mock.clock.advance(Number.NaN)).toThrow(RangeError)
  expect(mock.clock.now().toISOString()).toBe(NOW)
  expect(mock.clock.set('2028-02-29T12:00:00Z').state().now, 'a leap day exists').toBe('2028-02-29T12:00:00.000Z')
})

it('goes back to real time, running, on a reset', async () => {
  mock.clock.freeze('2001-01-01T00:00:00Z')
  await mock.reset()
  expect(mock.clock.frozen).toBe(false)
  expect(mock.clock.now().getUTCFullYear()).toBeGreaterThan(2001)
})

it('stamps values a bulk add creates with the clock’s time', async () => {
  mock.clock.freeze(NOW)
  const dimension = mock.fixtures.dimensions[0]!.id
  const added = await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    { values: [{ value: 'clocked' }] },
    mock.fixtures.tokens.super_admin,
  )
  expect(added.status).toBe(201)
  expect(added.body[0].created_at).toBe(NOW_SECONDS)
})

it('expires a token when the clock passes its exp, as PyJWT does (exp == now is expired)', async () => {
  mock.clock.freeze(NOW)
  const token = await mock.mintToken({
    sub: 'u',
    team_id: mock.fixtures.teams[0]!.id,
    permissions: ['persona:read'],
    exp: NOW_SECONDS + 60,
  })
  expect((await api.get('/v1/personas/', token)).status).toBe(200)
  mock.clock.advance(59)
  expect((await api.get('/v1/personas/', token)).status).toBe(200)
  mock.clock.advance(1)
  const expired = await api.get('/v1/personas/', token)
  expect(expired.status).toBe(401)
  expect(expired.text).toBe('{"detail":"Could not validate credentials"}')
  expect(expired.headers.get('www-authenticate')).toBe('Bearer')
})

it('accepts a token once the clock reaches its nbf, and refuses one issued after the clock’s now', async () => {
  mock.clock.freeze(NOW)
  const claims = { sub: 'u', team_id: mock.fixtures.teams[0]!.id, permissions: ['persona:read'] }
  const later = await mock.mintToken({ ...claims, nbf: NOW_SECONDS + 10 })
  expect((await api.get('/v1/personas/', later)).status).toBe(401)
  mock.clock.advance(10)
  expect((await api.get('/v1/personas/', later)).status).toBe(200)
  // The fixture tokens are issued at 2026-01-01: before it, they are not valid yet.
  mock.clock.freeze('2025-12-31T23:59:59Z')
  expect((await api.get('/v1/personas/', mock.fixtures.tokens.team_reader)).status).toBe(401)
  expect((await api.get('/v1/personas/', await mock.mintToken(claims))).status).toBe(200)
})
