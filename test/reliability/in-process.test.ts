import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { readAnswer } from '../support/answer.js'
import { fiftyParallelBulkAdds, resetsWhileReading } from './support/concurrency.js'
import { HANG_GUARD_MS, withinMs } from './support/fuzz.js'

// In-process (createMockServer, msw's setupServer): limits, faults and concurrency in one file,
// since only one mock may intercept fetch in a process at a time.

// The heap is measured after a full collection; this exposes `gc` without a command-line flag.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapMb = () => {
  gc()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

let mock: MockServer

beforeAll(async () => {
  mock = await createMockServer({ seed: 41, personasPerTeam: 20 })
})
afterAll(() => mock.close())

// No test here bounds how long an answer takes (a loaded machine is slow, and that is no
// failure): a pathological input must be answered, rightly, and not hang (the hang guard).
const list = (query: string) =>
  withinMs(
    HANG_GUARD_MS,
    fetch(mock.url(`/v1/personas/?${query}`), {
      headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
    }).then(readAnswer),
    `a query of ${query.length} characters`,
  )
const personas = () =>
  fetch(mock.url('/v1/personas/?limit=1'), { headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` } })
const bulkAdd = async (body: string) =>
  readAnswer(
    await fetch(mock.url(`/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`), {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body,
    }),
  )
const addValue = (value: string) => bulkAdd(JSON.stringify({ values: [{ value }] }))
const total = async (path: string) => {
  const answer = await readAnswer(
    await fetch(mock.url(path), { headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` } }),
  )
  return { status: answer.status, total: answer.json?.total as number | undefined }
}

it('answers a 1 MB query string, and keeps none of 30 such queries in memory', async () => {
  const first = await list(`search=${'a'.repeat(1024 * 1024)}`)
  expect([first.status, first.json.total]).toEqual([200, 0])
  const before = heapMb()
  for (let i = 0; i < 30; i++) expect((await list(`search=${'b'.repeat(1024 * 1024)}${i}`)).status).toBe(200)
  // 30 MB of queries went through; the journal keeps each entry's text to 2,048 characters.
  expect(heapMb() - before).toBeLessThan(10)
  const entry = mock.instance.journal.list({ limit: 1 })[0]!
  expect([entry.path, entry.query.length, entry.query.endsWith('…')]).toEqual(['/v1/personas/', 2048, true])
})

it.each([
  [
    '20,000 repeated intents',
    Array.from({ length: 20_000 }, (_, i) => `intents=${['benign', 'malicious', `x${i}`][i % 3]}`).join('&'),
    200,
  ],
  [
    '20,000 repeated limits, the last one invalid',
    `${Array.from({ length: 20_000 }, (_, i) => `limit=${(i % 100) + 1}`).join('&')}&limit=0`,
    422,
  ],
  ['20,000 parameters nobody asked for', Array.from({ length: 20_000 }, (_, i) => `p${i}=${i}`).join('&'), 200],
  ['20,000 empty fields', '&'.repeat(20_000), 200],
  ['10,000 percent escapes in one value', `search=${'%C3%A9'.repeat(10_000)}`, 200],
])('answers %s', async (_, query, status) => {
  const answer = await list(query)
  expect(answer.status).toBe(status)
})

it('keeps the journal to 1,000 entries by default, oldest dropped', async () => {
  mock.instance.journal.clear()
  for (let i = 0; i < 1_050; i++) await fetch(mock.url(`/nowhere/${i}`))
  const entries = mock.instance.journal.list()
  expect([entries.length, entries[0]!.path, entries.at(-1)!.path]).toEqual([1_000, '/nowhere/50', '/nowhere/1049'])
})

it('answers 1 MiB of nesting in a body with 400, without overflowing the stack', async () => {
  const res = await withinMs(
    HANG_GUARD_MS,
    fetch(mock.url(`/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`), {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body: `{"values":[{"value":"x","metadata":${'{"a":'.repeat(200_000)}`,
    }),
    '1 MiB of nesting',
  )
  expect([res.status, await res.text()]).toEqual([400, '{"detail":"There was an error parsing the body"}'])
})

it('injects faults in-process as over HTTP: a drop is a network error, an error its status, latency a wait', async () => {
  mock.instance.faults.set({
    operations: {
      bulk_add_values: { drop: { rate: 1 } },
      list_personas: { latency: 80, error: { status: 503, rate: 1 } },
    },
  })
  await expect(addValue('dropped')).rejects.toThrow(TypeError)
  expect(mock.world.values.all().some((v) => v.value === 'dropped')).toBe(false)
  const failed = await personas()
  expect([failed.status, await failed.text()]).toEqual([503, '{"detail":"Service Unavailable"}'])
  // The journal's duration runs from arrival to answer: the wait is in it. (A lower bound only,
  // since load only adds to it; 1 ms less than asked, as a timer counts whole milliseconds.)
  const [entry] = mock.instance.journal.list({ path: '/v1/personas/', limit: 1 })
  expect(entry!.status).toBe(503)
  expect(entry!.duration_ms, 'the 80 ms latency was waited').toBeGreaterThanOrEqual(79)
})

it('clears them on reset', async () => {
  mock.instance.faults.set({ latency: 500, drop: { rate: 1 } })
  await mock.reset()
  expect(mock.instance.faults.config).toEqual({})
  // What the faults decided for each request: no wait, and the operation's own answer.
  const decide = vi.spyOn(mock.instance.faults, 'decide')
  try {
    expect((await personas()).status).toBe(200)
    expect((await addValue('after-reset')).status).toBe(201)
    expect(decide.mock.calls.map(([operation]) => operation)).toEqual(['list_personas', 'bulk_add_values'])
    expect(decide.mock.results.map((result) => result.value)).toEqual([
      { latencyMs: 0, outcome: 'answer' },
      { latencyMs: 0, outcome: 'answer' },
    ])
  } finally {
    decide.mockRestore()
  }
})

it('loses no value and duplicates none under 50 parallel bulk adds in-process, sort orders unique', async () => {
  const dimension = mock.fixtures.dimensions[0]!.id
  await fiftyParallelBulkAdds(
    { bulkAdd, stored: () => mock.world.values.all().filter((v) => v.dimension_id === dimension) },
    'node',
  )
})

it('never answers from a half-seeded world while resets run in-process', async () => {
  // The same seed keeps ids and tokens across resets; only the number of personas changes.
  const stats = await resetsWhileReading(
    {
      reset: (personas) => mock.reset({ personasPerTeam: personas }),
      personaTotal: () => total('/v1/personas/?limit=1'),
      ruleTotal: () => total(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules?limit=1`),
      bulkAdd: (values) => bulkAdd(JSON.stringify({ values: values.map((value) => ({ value })) })),
      storedValues: async () => mock.world.values.all().map((v) => v.value),
    },
    [20, 45],
    260,
  )
  expect(stats.reads).toBeGreaterThan(60)
})
