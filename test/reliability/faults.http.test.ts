import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import type { FaultDecision } from '../../core/instance/faults.js'
import { http, loggedErrors, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 43, personasPerTeam: 3 })
  call = http(running)
})
afterEach(async () => {
  vi.restoreAllMocks()
  await call('/__mock/reset', { method: 'POST' })
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const setFaults = async (faults: unknown) =>
  expect((await call('/__mock/faults', { method: 'PUT', json: faults })).status).toBe(200)
const personas = () => call('/v1/personas/?limit=1', { token: fixtures().tokens.team_reader })
const rules = () =>
  call(`/v1/policies/${fixtures().policies[0]!.id}/rules?limit=1`, { token: fixtures().tokens.team_reader })
const bulkAdd = (value: string) =>
  call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    json: { values: [{ value }] },
  })
const stored = (value: string) => running.sessions.primary.world.values.all().some((v) => v.value === value)

// No test here bounds how long an answer takes: a loaded machine is slow, and that is no
// failure. What the faults decided for each request is read from a spy on the instance's
// faults; that a decided latency was waited is read from the journal, whose duration runs
// from the request's arrival to its answer: at least the latency (a lower bound holds however
// loaded the machine; 1 ms less than asked, as a timer counts whole milliseconds).

/** Records, in arrival order, what the faults decide for each API request from now on. */
function watchDecisions() {
  const decide = vi.spyOn(running.sessions.primary.faults, 'decide')
  return () =>
    decide.mock.calls.map(([operation], i) => [operation, decide.mock.results[i]!.value as FaultDecision] as const)
}
/** The newest `count` journal entries whose path contains `path`. */
const journaled = (path: string, count: number) => running.sessions.primary.journal.list({ path, limit: count })

it('adds a fixed latency to one operation only', async () => {
  await setFaults({ operations: { bulk_add_values: { latency: 150 } } })
  const decisions = watchDecisions()
  const added = await bulkAdd('late')
  expect(added.status).toBe(201)
  const listed = await personas()
  expect(listed.status).toBe(200)
  expect(decisions()).toEqual([
    ['bulk_add_values', { latencyMs: 150, outcome: 'answer' }],
    ['list_personas', { latencyMs: 0, outcome: 'answer' }],
  ])
  const [entry] = journaled('/values/bulk', 1)
  expect(entry!.status).toBe(201)
  expect(entry!.duration_ms, 'the 150 ms were waited').toBeGreaterThanOrEqual(149)
})

it('draws each latency from its range', async () => {
  await setFaults({ latency: { min: 40, max: 90 } })
  const decisions = watchDecisions()
  const answers = await Promise.all(Array.from({ length: 24 }, personas))
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
  const latencies = decisions().map(([, decision]) => decision.latencyMs)
  expect(latencies).toHaveLength(24)
  expect(
    latencies.filter((ms) => !Number.isInteger(ms) || ms < 40 || ms > 90),
    'each within the range',
  ).toEqual([])
  expect(Math.max(...latencies) - Math.min(...latencies), 'not one fixed value').toBeGreaterThan(5)
  // Each request waited its own draw: then the k-th shortest duration is at least the k-th smallest draw.
  const durations = journaled('/v1/personas/', 24)
    .map((entry) => entry.duration_ms)
    .sort((a, b) => a - b)
  const drawn = [...latencies].sort((a, b) => a - b)
  expect(
    durations.map((ms, k) => ms >= drawn[k]! - 1),
    `durations ${durations} against draws ${drawn}`,
  ).toEqual(drawn.map(() => true))
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
  expect([answer.status, answer.headers.get('content-type'), answer.text]).toEqual([
    status,
    'application/json',
    JSON.stringify({ detail: phrase }),
  ])
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
  expect(new Set(await Promise.all(Array.from({ length: 40 }, async () => (await personas()).status)))).toEqual(
    new Set([200]),
  )
  await setFaults({ drop: { rate: 0.5 } })
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, () =>
      personas().then(
        (a) => a.status,
        () => 'dropped',
      ),
    ),
  )
  const dropped = outcomes.filter((o) => o === 'dropped').length
  expect(dropped).toBeGreaterThan(60)
  expect(dropped).toBeLessThan(140)
  expect(outcomes.every((o) => o === 'dropped' || o === 200)).toBe(true)
})

it('lets per-operation settings override the global ones', async () => {
  await setFaults({
    error: { status: 500 },
    operations: { list_policy_rules: { error: { status: 503 } }, list_personas: { error: { status: 502, rate: 0 } } },
  })
  expect((await rules()).status).toBe(503)
  expect((await personas()).status).toBe(200)
  expect((await bulkAdd('global')).status).toBe(500)
})

it('clears latency, errors and drops on reset', async () => {
  await setFaults({ latency: 300, error: { status: 503, rate: 0.5 }, drop: { rate: 0.5 } })
  expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
  expect((await call('/__mock/faults')).text).toBe('{}')
  const decisions = watchDecisions()
  const answers = await Promise.all(Array.from({ length: 20 }, personas))
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
  expect(decisions(), 'no wait, and the operation answers').toEqual(
    answers.map(() => ['list_personas', { latencyMs: 0, outcome: 'answer' }]),
  )
})

it('logged no error', () => {
  expect(loggedErrors).toEqual([])
})
