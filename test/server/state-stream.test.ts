/**
 * No event-loop stalls (issue #14 part 3), over HTTP: `GET /__mock/state` streams the bytes of
 * the whole-string export from a snapshot, a client that reads none of it holds up nobody, a
 * fifth unread export is refused, and health answers while a large world is seeded or imported.
 * No assertion on time: what is checked is which answers come before which.
 */
import { request, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

const PERSONAS = 20_000
/** The bound of a test that seeds or imports a large world: seconds when quiet, minutes on a busy 2-core machine. */
const LARGE_WORLD = 300_000
let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 31, personasPerTeam: PERSONAS, maxBodyBytes: 256 * 2 ** 20 })
  call = http(running)
}, 120_000)
afterAll(() => running.close())

/** A GET whose answer is left unread: the response, paused, and its raw socket open. */
function openUnread(path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${running.url}${path}`, { headers, agent: false }, (res) => {
      res.pause()
      resolve(res)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Reads the rest of a paused response. */
const readRest = (res: IncomingMessage, first: Buffer[] = []) =>
  new Promise<Buffer>((resolve, reject) => {
    res.on('data', (chunk: Buffer) => first.push(chunk))
    res.on('end', () => resolve(Buffer.concat(first)))
    res.on('error', reject)
    res.resume()
  })

/** The first chunk of a paused response, leaving it paused again. */
const firstChunk = (res: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    res.once('data', (chunk: Buffer) => (res.pause(), resolve(chunk)))
    res.resume()
  })

/** Health answers, one at a time, until `until` settles: how many came before it. */
async function healthWhile(until: Promise<unknown>): Promise<number> {
  let settled = false
  void until.then(
    () => void (settled = true),
    () => void (settled = true),
  )
  let answered = 0
  while (!settled) {
    const health = await call('/__mock/health')
    expect(health.status).toBe(200)
    if (!settled) answered++
  }
  return answered
}

const sessionOf = (key: string) => ({ 'x-mock-session': key })

it('streams the state in chunks: the bytes of the whole export, without content-length', async () => {
  const res = await openUnread('/__mock/state')
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toBe('application/json')
  expect(res.headers['content-length']).toBeUndefined()
  expect(res.headers['transfer-encoding']).toBe('chunked')
  const body = await readRest(res)
  expect(body.equals(Buffer.from(running.sessions.primary.exportState())), 'the same bytes').toBe(true)
})

it('writes odd values (big sort orders, floats, escapes, __proto__ keys) exactly as the whole export', async () => {
  const session = sessionOf('odd-values')
  const instance = await running.sessions.instance('odd-values')
  const added = await call(`/v1/demographics/${instance.fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: instance.fixtures.tokens.super_admin,
    headers: { ...session, 'content-type': 'application/json' },
    body:
      '{"values":[{"value":"a\\u2028\\"b\\\\","sort_order":123456789012345678901234567890,' +
      '"value_metadata":{"__proto__":{"x":1.0},"f":1e-7,"big":-98765432109876543210,"s":"\\ud800😀\\u0000"}},' +
      `{"value":"Zoë","sort_order":-5,"value_metadata":{"deep":${'['.repeat(35)}1.5${']'.repeat(35)}}},` +
      '{"value":"next"}]}',
  })
  expect(added.status, added.text).toBe(201)
  const exported = await call('/__mock/state', { headers: session })
  expect(exported.text).toContain('"sort_order":123456789012345678901234567890')
  expect(exported.text).toBe(instance.exportState())
})

it('exports a snapshot: writes and a reset made while it streams are not in it', async () => {
  const session = sessionOf('snapshot')
  const instance = await running.sessions.instance('snapshot')
  const before = instance.exportState()
  const res = await openUnread('/__mock/state', session)
  const first = await firstChunk(res)
  const written = await call(`/v1/demographics/${instance.fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: instance.fixtures.tokens.super_admin,
    headers: session,
    json: { values: [{ value: 'written while the export streams' }] },
  })
  expect(written.status).toBe(201)
  expect((await call('/__mock/reset', { method: 'POST', headers: session, json: { personas: 3 } })).status).toBe(200)
  const body = await readRest(res, [first])
  expect(body.toString() === before, 'the export is the world as it was when asked for').toBe(true)
  expect(instance.exportState()).not.toBe(before)
})

it('answers health while exports are left unread, refuses a fifth with 503, and takes one again once one is closed', async () => {
  const unread = await Promise.all(Array.from({ length: 4 }, () => openUnread('/__mock/state')))
  expect(unread.map((res) => res.statusCode)).toEqual([200, 200, 200, 200])
  for (let i = 0; i < 5; i++) expect((await call('/__mock/health')).json).toEqual({ status: 'ok' })
  const refused = await call('/__mock/state')
  expect(refused.status).toBe(503)
  expect(refused.json).toEqual({
    detail: '4 exports of the state are being read already: read one to the end or close it, then ask again.',
  })
  expect((await call('/__mock/state', { method: 'HEAD' })).status, 'HEAD takes no snapshot').toBe(200)
  unread.pop()!.destroy()
  // The server hears the close on its own time: ask until the slot is free (the test's timeout bounds it).
  let again = await openUnread('/__mock/state')
  while (again.statusCode === 503) {
    again.destroy()
    await new Promise((resolve) => setTimeout(resolve, 20))
    again = await openUnread('/__mock/state')
  }
  expect(again.statusCode).toBe(200)
  expect((await readRest(again)).byteLength).toBe(Buffer.byteLength(running.sessions.primary.exportState()))
  for (const res of unread) res.destroy()
})

it(
  'answers health before the first answer of a session that seeds a large world',
  async () => {
    const reset = call('/__mock/reset', {
      method: 'POST',
      headers: sessionOf('large-seeded'),
      json: { seed: 4242, personas: 50_000 },
    })
    const answered = await healthWhile(reset)
    expect((await reset).status).toBe(200)
    expect(answered, 'health answers while 100,000 personas were seeded').toBeGreaterThanOrEqual(10)
  },
  LARGE_WORLD,
)

it(
  'answers health while a large state is imported, once its body is sent',
  async () => {
    const state = running.sessions.primary.exportState()
    const { sent, status } = put('/__mock/state', state, {
      ...sessionOf('large-import'),
      'content-type': 'application/json',
    })
    await sent
    const answered = await healthWhile(status)
    expect(await status).toBe(200)
    expect(answered, `health answers while ${2 * PERSONAS} personas were imported`).toBeGreaterThanOrEqual(10)
    expect((await call('/__mock/state', { headers: sessionOf('large-import') })).text === state).toBe(true)
  },
  LARGE_WORLD,
)

/** A PUT of `body`: when it has been handed to the socket whole, and its answer's status. */
function put(path: string, body: string, headers: Record<string, string>) {
  let sent!: Promise<void>
  const status = new Promise<number>((resolve, reject) => {
    const req = request(`${running.url}${path}`, { method: 'PUT', headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    sent = new Promise((done) => req.once('finish', done))
    req.on('error', reject)
    req.end(body)
  })
  return { sent, status }
}
