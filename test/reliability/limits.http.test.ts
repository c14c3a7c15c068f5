import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { loggedErrors, startTestServer } from '../support/server.js'
import { HANG_GUARD_MS, withinMs } from './support/fuzz.js'
import { rawExchange, rawRequest } from './support/raw-http.js'

const MiB = 1024 * 1024
const TOO_LARGE = [413, '{"detail":"Request body too large"}']

let running: RunningServer

beforeAll(async () => {
  running = await startTestServer({ seed: 40, personasPerTeam: 3 })
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const bulkPath = () => `/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`
const admin = () => ({ authorization: `Bearer ${fixtures().tokens.super_admin}`, 'content-type': 'application/json' })
const reader = () => ({ authorization: `Bearer ${fixtures().tokens.team_reader}` })

/** A bulk-add body of exactly `bytes` bytes (padding in one value's metadata). */
function bodyOf(bytes: number, value = `sized-${bytes}`): string {
  const empty = `{"values":[{"value":"${value}","metadata":{"pad":""}}]}`
  return empty.replace('"pad":""', `"pad":"${'p'.repeat(bytes - empty.length)}"`)
}

it('takes a body of exactly 1 MiB and refuses one byte more with 413, by default', async () => {
  const atLimit = await rawRequest(running.url, 'POST', bulkPath(), admin(), bodyOf(MiB))
  expect(atLimit.status).toBe(201)
  const over = await rawRequest(running.url, 'POST', bulkPath(), admin(), bodyOf(MiB + 1))
  expect([over.status, over.text]).toEqual(TOO_LARGE)
})

it('refuses a chunked body over the limit as it streams in, without a declared length', async () => {
  const parts = Array.from({ length: 3 }, (_, i) =>
    i === 0 ? `{"values":[{"value":"chunked","metadata":{"pad":"` : 'p'.repeat(MiB / 2),
  )
  const answer = await withinMs(
    HANG_GUARD_MS,
    rawRequest(running.url, 'POST', bulkPath(), admin(), parts).catch((error: Error) => error),
    'a chunked body over the limit',
  )
  // The server may close the connection before the client has sent everything; it must not take the body.
  if (!(answer instanceof Error)) expect([answer.status, answer.text]).toEqual(TOO_LARGE)
  expect(running.sessions.primary.world.values.all().some((v) => v.value === 'chunked')).toBe(false)
})

it('answers a declared 50 MB body with 413 at once, without waiting for it', async () => {
  const valuesBefore = running.sessions.primary.world.values.all().length
  // The client sends the head and 11 bytes of the 50 MB, then nothing more, and waits: a whole
  // 413 can only come from a server that decided on the declared length, not on the body.
  const answer = await rawExchange(
    running.url,
    `POST ${bulkPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixtures().tokens.super_admin}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"values":[`,
  )
  expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*\{"detail":"Request body too large"\}$/)
  expect(running.sessions.primary.world.values.all().length, 'nothing added').toBe(valuesBefore)
})

it('applies a configured maxBodyBytes to the byte', async () => {
  const small = await startTestServer({ personasPerTeam: 1, maxBodyBytes: 4096 })
  try {
    const path = `/v1/demographics/${small.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk`
    const headers = {
      authorization: `Bearer ${small.sessions.primary.fixtures.tokens.super_admin}`,
      'content-type': 'application/json',
    }
    expect((await rawRequest(small.url, 'POST', path, headers, bodyOf(4096))).status).toBe(201)
    const over = await rawRequest(small.url, 'POST', path, headers, bodyOf(4097))
    expect([over.status, over.text]).toEqual(TOO_LARGE)
    const anyPath = await rawRequest(small.url, 'POST', '/nowhere', {}, 'x'.repeat(5000))
    expect([anyPath.status, anyPath.text], 'checked before routing, authentication and validation').toEqual(TOO_LARGE)
  } finally {
    await small.close()
  }
})

it.each([
  ['1 MiB of [', '['.repeat(MiB - 64)],
  [
    '100,000 nested objects in metadata',
    `{"values":[{"value":"deep","metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`,
  ],
  ['a 4,301-digit integer', `{"values":[{"value":"big","sort_order":${'9'.repeat(4301)}}]}`],
])(
  'answers %s with 400 There was an error parsing the body, without hanging or overflowing the stack',
  async (_, body) => {
    const answer = await withinMs(
      HANG_GUARD_MS,
      rawRequest(running.url, 'POST', bulkPath(), admin(), body),
      'a body that does not parse',
    )
    expect([answer.status, answer.text]).toEqual([400, '{"detail":"There was an error parsing the body"}'])
  },
)

it('answers metadata nested 999 deep, and writes it back whole', async () => {
  const body = `{"values":[{"value":"nested-999","metadata":{"x":${'['.repeat(996)}1${']'.repeat(996)}}}]}`
  const answer = await rawRequest(running.url, 'POST', bulkPath(), admin(), body)
  expect(answer.status).toBe(201)
  expect(answer.text).toContain(`"value_metadata":{"x":${'['.repeat(996)}1${']'.repeat(996)}}`)
})

it('answers a query up to the 256 KiB request head uvicorn takes in one read, and 431 past it, then goes on answering', async () => {
  const nearLimit = await rawRequest(running.url, 'GET', `/v1/personas/?search=${'a'.repeat(70_000)}`, reader())
  expect([nearLimit.status, nearLimit.json?.total]).toEqual([200, 0])
  const past = await rawRequest(running.url, 'GET', `/v1/personas/?search=${'a'.repeat(300_000)}`, reader())
  expect(past.status, 'Node refuses the request head before the mock sees it').toBe(431)
  expect((await rawRequest(running.url, 'GET', '/v1/personas/?limit=1', reader())).status).toBe(200)
})

it('answers a thousand and more repeated parameters: every intents value counts, the last limit wins', async () => {
  const intents = await rawRequest(
    running.url,
    'GET',
    `/v1/personas/?${Array.from({ length: 1000 }, (_, i) => `intents=${['benign', 'curious', 'x'][i % 3]}`).join('&')}&limit=100`,
    reader(),
  )
  expect(intents.status).toBe(200)
  expect(new Set(intents.json.results.map((p: { intent: string }) => p.intent))).toEqual(new Set(['benign', 'curious']))
  const limits = await rawRequest(
    running.url,
    'GET',
    `/v1/personas/?${Array.from({ length: 1500 }, (_, i) => `limit=${(i % 100) + 1}`).join('&')}&limit=2`,
    reader(),
  )
  expect([limits.status, limits.json.results.length]).toEqual([200, 2])
})

it('keeps at most 100 session worlds by default, and never more than the limit, even when keys arrive at once', async () => {
  expect(running.sessions.limit).toBe(100)
  const few = await startTestServer({ personasPerTeam: 1, sessionLimit: 5 })
  try {
    const keys = Array.from({ length: 20 }, (_, i) => `limit-session-${i}`)
    const answers = await Promise.all(
      keys.map((key) => rawRequest(few.url, 'GET', '/__mock/fixtures', { 'x-mock-session': key })),
    )
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 200))
    expect(few.sessions.size).toBe(5)
  } finally {
    await few.close()
  }
})

it('logged no error', () => {
  expect(loggedErrors).toEqual([])
})
