import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, loggedErrors, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 43, personasPerTeam: 3 })
  call = http(running)
})
afterEach(async () => {
  await call('/__mock/reset', { method: 'POST' })
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const setFaults = async (faults: unknown) => expect((await call('/__mock/faults', { method: 'PUT', json: faults })).status).toBe(200)
const personas = () => call('/v1/personas/?limit=1', { token: fixtures().tokens.team_reader })
const rules = () => call(`/v1/policies/${fixtures().policies[0]!.id}/rules?limit=1`, { token: fixtures().tokens.team_reader })
const bulkAdd = (value: string) => call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, { method: 'POST', token: fixtures().tokens.super_admin, json: { values: [{ value }] } })
const stored = (value: string) => running.sessions.primary.world.values.all().some((v) => v.value === value)

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const result = await work()
  return [result, performance.now() - started]
}

it('adds a fixed latency to one operation only', async () => {
  await setFaults({ operations: { bulk_add_values: { latency: 150 } } })
  const [added, slow] = await timed(() => bulkAdd('late'))
  expect(added.status).toBe(201)
  expect(slow).toBeGreaterThanOrEqual(145)
  const [listed, fast] = await timed(personas)
  expect(listed.status).toBe(200)
  expect(fast).toBeLessThan(100)
})

it('draws each latency from its range', async () => {
  await setFaults({ latency: { min: 40, max: 90 } })
  const durations = await Promise.all(Array.from({ length: 24 }, async () => (await timed(personas))[1]))
  expect(Math.min(...durations)).toBeGreaterThanOrEqual(38)
  expect(Math.max(...durations)).toBeLessThan(90 + 150)
  expect(Math.max(...durations) - Math.min(...durations), 'not one fixed value').toBeGreaterThan(5)
})

it.each([
  [400, 'Bad Request'],
  [418, "I'm a Teapot"],
  [429, 'Too Many Requests'],
  [500, 'Internal Server Error'],
  [502, 'Bad Gateway'],
  [503, 'Service Unavailable'],
  [504, 'Gateway Timeout'],
])('answers an injected %i with {"detail": "%s"} and adds nothing', async (status, phrase) => {
  await setFaults({ operations: { bulk_add_values: { error: { status } } } })
  const answer = await bulkAdd(`refused-${status}`)
  expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([status, 'application/json', JSON.stringify({ detail: phrase })])
  expect(stored(`refused-${status}`)).toBe(false)
  expect((await personas()).status, 'other operations untouched').toBe(200)
})

it('drops the connection without an answer and adds nothing, while the control API still answers', async () => {
  await setFaults({ drop: { rate: 1 } })
  await expect(bulkAdd('dropped')).rejects.toThrow()
  await expect(rules()).rejects.toThrow()
  expect(stored('dropped')).toBe(false)
  expect((await call('/__mock/health')).status, 'faults are for the API, not the control API').toBe(200)
  const journal = (await call('/__mock/requests')).json.requests as Array<{ path: string }>
  expect(journal.some((entry) => entry.path.endsWith('/values/bulk'))).toBe(true)
})

it('applies rates: 0 never, 1 always, 0.5 about half', async () => {
  await setFaults({ error: { status: 503, rate: 0 } })
  expect(new Set(await Promise.all(Array.from({ length: 40 }, async () => (await personas()).status)))).toEqual(new Set([200]))
  await setFaults({ drop: { rate: 0.5 } })
  const outcomes = await Promise.all(Array.from({ length: 200 }, () => personas().then((a) => a.status, () => 'dropped')))
  const dropped = outcomes.filter((o) => o === 'dropped').length
  expect(dropped).toBeGreaterThan(60)
  expect(dropped).toBeLessThan(140)
  expect(outcomes.every((o) => o === 'dropped' || o === 200)).toBe(true)
})

it('lets per-operation settings override the global ones', async () => {
  await setFaults({ error: { status: 500 }, operations: { list_policy_rules: { error: { status: 503 } }, list_personas: { error: { status: 502, rate: 0 } } } })
  expect((await rules()).status).toBe(503)
  expect((await personas()).status).toBe(200)
  expect((await bulkAdd('global')).status).toBe(500)
})

it('clears latency, errors and drops on reset', async () => {
  await setFaults({ latency: 300, error: { status: 503, rate: 0.5 }, drop: { rate: 0.5 } })
  expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
  expect((await call('/__mock/faults')).text).toBe('{}')
  const [answers, ms] = await timed(() => Promise.all(Array.from({ length: 20 }, personas)))
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
  expect(ms).toBeLessThan(300)
})

it('logged no error', () => {
  expect(loggedErrors).toEqual([])
})
