/**
 * The proxy's bounds towards a hostile or broken target: a target that never answers costs a 504 and no socket
 * left open (a client that gives up aborts its request), and a compression bomb is handed on byte for byte
 * without being decoded past the judge's limit.
 */
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { startProxy, type RunningProxy } from 'agent-console-mock/server'
import { type SilentTarget, startSilentTarget } from '../support/silent-target.js'

/** A journal entry as `GET /__mock/requests` lists it (the fields read here). */
type JournalEntry = { method: string; path: string; query: string; status: number }

let silent: SilentTarget
beforeAll(async () => void (silent = await startSilentTarget()))
afterAll(() => silent?.close())

const journalOf = async (proxy: RunningProxy) =>
  ((await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { requests: JournalEntry[] }).requests
const violationsOf = async (proxy: RunningProxy) =>
  ((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: unknown[] }).violations

/** Bounds far beyond the test's own, so that only the clients' leaving can close the target's sockets. */
const PATIENT = { connectTimeoutMs: 600_000, answerTimeoutMs: 600_000 }

it('closes its connection to the target when the client gives up', async () => {
  const proxy = await startProxy({ target: silent.url, port: 0, timeouts: PATIENT })
  try {
    const clients = Array.from({ length: 20 }, () => new AbortController())
    const answers = clients.map((client) =>
      fetch(`${proxy.url}/v1/personas/`, { signal: client.signal }).catch((error: Error) => error.name),
    )
    await vi.waitFor(() => expect(silent.open()).toBe(20), { timeout: 20_000, interval: 20 })
    for (const client of clients) client.abort()
    expect(new Set(await Promise.all(answers))).toEqual(new Set(['AbortError']))
    await vi.waitFor(() => expect(silent.open(), 'connections left open to the target').toBe(0), {
      timeout: 20_000,
      interval: 20,
    })
    expect((await journalOf(proxy)).map((entry) => entry.status)).toEqual(Array(20).fill(499))
  } finally {
    await proxy.close()
  }
}, 60_000)

it('answers 504 when the target does not answer in time, and closes its connection', async () => {
  const proxy = await startProxy({ target: silent.url, port: 0, timeouts: { answerTimeoutMs: 300 } })
  try {
    const answer = await fetch(`${proxy.url}/v1/personas/?limit=1`)
    expect(answer.status).toBe(504)
    expect(await answer.json()).toEqual({
      detail: `The target took too long: ${silent.url} did not answer within 300 ms (--connect-timeout and --answer-timeout set the bounds).`,
    })
    await vi.waitFor(() => expect(silent.open()).toBe(0), { timeout: 20_000, interval: 20 })
    expect(await journalOf(proxy)).toMatchObject([
      { method: 'GET', path: '/v1/personas/', query: 'limit=1', status: 504 },
    ])
    expect(await violationsOf(proxy)).toEqual([])
  } finally {
    await proxy.close()
  }
}, 60_000)

/** 1 GiB of zeros as 1,024 gzip members of 1 MiB each (gzip readers decode the members in turn): about 1 MB. */
const BOMB = (() => {
  const member = gzipSync(Buffer.alloc(2 ** 20))
  return Buffer.concat(Array.from({ length: 1024 }, () => member))
})()
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

let bomber: Server
let bombing: RunningProxy
beforeAll(async () => {
  bomber = createServer((req, res) => {
    if (req.url === '/fine') return void res.end('fine')
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB)
  }).listen(0, '127.0.0.1')
  await once(bomber, 'listening')
  bombing = await startProxy({ target: `http://127.0.0.1:${(bomber.address() as AddressInfo).port}`, port: 0 })
})
afterAll(async () => {
  await bombing?.close()
  bomber?.close()
})

/** The bytes of an answer as they came on the wire (fetch would decode them). */
const rawGet = (url: string) =>
  new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) =>
    request(url, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => resolve({ headers: answer.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end(),
  )

it('hands a gzip bomb on byte for byte, judges no more of it than its limit, and keeps answering', async () => {
  const bombs = [1, 2, 3].map(() => rawGet(`${bombing.url}/v1/personas/?limit=5`))
  const others = [rawGet(`${bombing.url}/fine`), fetch(`${bombing.url}/__mock/health`).then((r) => r.json())]
  for (const { headers, body } of await Promise.all(bombs)) {
    expect(digest(body), 'the bomb as the target sent it').toBe(digest(BOMB))
    expect(headers).toMatchObject({ 'content-encoding': 'gzip', 'x-contract-violations': 'not-judged' })
  }
  const [fine, health] = await Promise.all(others)
  expect([(fine as { body: Buffer }).body.toString(), health]).toEqual(['fine', { status: 'ok', mode: 'proxy' }])
  const violations = await violationsOf(bombing)
  expect(violations).toHaveLength(3)
  expect(violations[0]).toMatchObject({
    path: '/v1/personas/',
    status: 200,
    violations: [{ check: 'not-judged', message: 'a body decodes to more than 16777216 bytes: not judged' }],
  })
}, 120_000)

it('refuses a target answer past the bytes it holds, and closes the connection to the target', async () => {
  const { forward, TargetTooLarge } = await import('../../server/proxy/forward.js')
  const chunk = Buffer.alloc(64 * 1024, 'x')
  let closed = false
  const endless: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const write = () => {
      while (res.write(chunk));
    }
    res.on('drain', write)
    res.on('close', () => (closed = true))
    write()
  })
  endless.listen(0, '127.0.0.1')
  await once(endless, 'listening')
  try {
    const target = new URL(`http://127.0.0.1:${(endless.address() as AddressInfo).port}`)
    const outgoing = { method: 'GET', target: '/v1/agents', rawHeaders: [], body: Buffer.alloc(0) }
    const answer = forward(target, outgoing, undefined, undefined, 1024 * 1024)
    await expect(answer).rejects.toThrow(TargetTooLarge)
    await expect(answer).rejects.toThrow(`${target.origin} answered more than 1048576 bytes, more than the proxy holds`)
    await vi.waitFor(() => expect(closed, 'the target sees its connection closed').toBe(true))
  } finally {
    endless.closeAllConnections()
    endless.close()
  }
})
