/**
 * `forward` (`--forward <prefix>=<url>`) on the standalone server: requests under a prefix go to a real server
 * and come back byte for byte, ahead of the mock's own operations, journaled in the request's world, with the
 * proxy's timeouts and abort.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import { type SilentTarget, startSilentTarget } from '../support/silent-target.js'
import { startTestServer } from '../support/server.js'
import { type RecordingTarget, startRecordingTarget } from '../support/recording-target.js'

let real: RecordingTarget
let silent: SilentTarget
let mock: RunningServer

beforeAll(async () => {
  real = await startRecordingTarget({
    status: 201,
    statusText: 'Made Here',
    json: JSON.stringify({ results: [{ id: 'agent-1' }], total: 1 }),
    headers: [
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Real', 'yes'],
    ],
  })
  silent = await startSilentTarget()
  mock = await startTestServer({
    forward: { '/v1/agents': real.url, '/v1/personas': real.url, '/slow': silent.url },
    forwardTimeouts: { answerTimeoutMs: 300 },
  })
})
afterAll(async () => {
  await mock?.close()
  real?.close()
  silent?.close()
})

/** An answer as it came on the wire: status line, raw headers, body bytes (fetch would decode them). */
const raw = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Promise<{ status: number; message: string; rawHeaders: string[]; body: Buffer }>((resolve, reject) =>
    request(url, { method: init.method ?? 'GET', headers: init.headers }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () =>
        resolve({
          status: answer.statusCode!,
          message: answer.statusMessage!,
          rawHeaders: answer.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      )
    })
      .on('error', reject)
      .end(init.body),
  )

type Entry = { method: string; path: string; query: string; status: number; origin: string; body: string | null }
const journal = async (prefix = '') =>
  ((await (await fetch(`${mock.url}${prefix}/__mock/requests`)).json()) as { requests: Entry[] }).requests

it('sends a request under a forwarded prefix to the real server and hands its answer on byte for byte', async () => {
  const body = JSON.stringify({ name: 'agent' })
  const answer = await raw(`${mock.url}/v1/agents/?limit=2&x=%20`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace': 'abc', 'accept-encoding': 'gzip' },
    body,
  })
  expect([answer.status, answer.message]).toEqual([201, 'Made Here'])
  expect(answer.body.equals(real.body), 'the gzip bytes themselves').toBe(true)
  const names = answer.rawHeaders.filter((_, i) => i % 2 === 0)
  expect(names).toEqual(expect.arrayContaining(['Content-Encoding', 'Set-Cookie', 'X-Real']))
  expect(answer.rawHeaders.filter((value) => /^[ab]=/.test(value))).toEqual(['a=1', 'b=2'])
  expect(real.seen).toMatchObject({ method: 'POST', url: '/v1/agents/?limit=2&x=%20', body })
  expect(real.seen.headers).toMatchObject({ 'x-trace': 'abc', host: new URL(real.url).host })
  const [entry] = (await journal()).slice(-1)
  expect(entry).toMatchObject({ method: 'POST', path: '/v1/agents/', query: 'limit=2&x=%20', status: 201, body })
  expect(entry!.origin, "the real server's origin: the entry says where it went").toBe(real.url)
})

it('forwards a prefix over an operation the mock implements, and answers the rest itself', async () => {
  const personas = await raw(`${mock.url}/v1/personas/?team_id=x`)
  expect([personas.status, personas.body.equals(real.body), real.seen.url]).toEqual([
    201,
    true,
    '/v1/personas/?team_id=x',
  ])
  const rules = await fetch(`${mock.url}/v1/policies/${mock.sessions.primary.fixtures.policies[0]!.id}/rules`)
  expect([rules.status, await rules.json()], 'the mock: no token').toEqual([401, { detail: 'Not authenticated' }])
  const near = await fetch(`${mock.url}/v1/agentsX`)
  expect(near.status, 'a prefix covers whole segments only').toBe(404)
})

it("forwards under a session's path without the session, journaled in that session", async () => {
  const answer = await raw(`${mock.url}/__session/s1/v1/agents/7`)
  expect([answer.status, real.seen.url]).toEqual([201, '/v1/agents/7'])
  expect((await journal('/__session/s1')).map((entry) => entry.path)).toEqual(['/v1/agents/7'])
  expect((await journal()).map((entry) => entry.path)).not.toContain('/v1/agents/7')
})

it('answers 504 when the real server is too slow, and closes the connections of clients that gave up', async () => {
  const slow = await fetch(`${mock.url}/slow/report`)
  expect(slow.status).toBe(504)
  expect(((await slow.json()) as { detail: string }).detail).toContain('did not answer within 300 ms')
  await vi.waitFor(() => expect(silent.open()).toBe(0), { timeout: 20_000, interval: 20 })
  const patient = await startTestServer({
    forward: { '/slow': silent.url },
    forwardTimeouts: { answerTimeoutMs: 600_000, connectTimeoutMs: 600_000 },
  })
  try {
    const clients = Array.from({ length: 5 }, () => new AbortController())
    const answers = clients.map((client) => fetch(`${patient.url}/slow`, { signal: client.signal }).catch(() => 0))
    await vi.waitFor(() => expect(silent.open()).toBe(5), { timeout: 20_000, interval: 20 })
    for (const client of clients) client.abort()
    await Promise.all(answers)
    await vi.waitFor(() => expect(silent.open()).toBe(0), { timeout: 20_000, interval: 20 })
  } finally {
    await patient.close()
  }
}, 60_000)

it('refuses a prefix or a URL it cannot use, saying what to write', async () => {
  await expect(startServer({ port: 0, forward: { 'v1/agents': real.url } })).rejects.toThrow(
    'forward: the path prefix "v1/agents" must start with "/", e.g. /v1/agents=',
  )
  await expect(startServer({ port: 0, forward: { '/v1/agents': 'ftp://x' } })).rejects.toThrow(
    'forward: "ftp://x" (for /v1/agents) must be an http:// or https:// URL',
  )
})
