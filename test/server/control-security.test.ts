/**
 * The control API trusts only the developer's own pages (issue #14): a page of another origin,
 * or one reached through a rebound DNS name, cannot reset the world, read a token or import
 * a state, nor change the API's world (even with a token signed by the public development secret), while
 * the API under /v1 answers reads of any origin.
 */
import { request as rawRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { startTestServer } from '../support/server.js'

let running: RunningServer
let trusting: RunningServer

beforeAll(async () => {
  running = await startTestServer({ seed: 21, personasPerTeam: 3 })
  trusting = await startTestServer({
    seed: 21,
    personasPerTeam: 3,
    // Spelt as a user may type it: an origin is compared as browsers send it (lower case, no path).
    allowOrigins: ['https://App.example/'],
    allowedHosts: ['mock.test'],
  })
})
afterAll(() => Promise.all([running.close(), trusting.close()]))

/** A request with exact headers (fetch would not send a Host or Origin of our choosing). */
function send(
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const url = new URL(server.url)
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = rawRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        )
      })
      req.on('error', reject)
      req.end(body)
    },
  )
}

const evil = { origin: 'https://evil.example' }
const plainText = { 'content-type': 'text/plain' }

it('refuses a simple cross-site POST to the control API and changes nothing', async () => {
  const before = running.sessions.primary.world.values.count()
  await running.sessions.primary.reset({ personasPerTeam: 3 })
  const stateBefore = running.sessions.primary.exportState()
  const reset = await send(running, 'POST', '/__mock/reset', { ...evil, ...plainText }, '{"seed":99}')
  expect([reset.status, reset.headers['access-control-allow-origin']]).toEqual([403, undefined])
  expect(JSON.parse(reset.body).detail).toMatch(/https:\/\/evil\.example are refused.*--allow-origin/)
  const tokens = await send(
    running,
    'POST',
    '/__mock/tokens',
    { ...evil, 'content-type': 'application/json' },
    '{"sub":"x","is_super_admin":true}',
  )
  expect([tokens.status, tokens.body.includes('token')]).toEqual([403, false])
  const state = await send(
    running,
    'PUT',
    '/__mock/state',
    { ...evil, 'content-type': 'application/json' },
    stateBefore,
  )
  expect(state.status).toBe(403)
  // A request without Origin that the browser marks cross-site (a form or link of another site, in some browsers).
  const json = { 'content-type': 'application/json' }
  const unmarked = await send(running, 'POST', '/__mock/snapshots', { 'sec-fetch-site': 'cross-site', ...json }, '{}')
  expect(unmarked.status).toBe(403)
  expect(JSON.parse(unmarked.body).detail).toMatch(/^Control requests from a page of another site are refused/)
  const sameOrigin = await send(running, 'GET', '/__mock/snapshots', { 'sec-fetch-site': 'same-origin' })
  expect(sameOrigin.status).toBe(200)
  expect(running.sessions.primary.exportState(), 'the world is as it was').toBe(stateBefore)
  expect(running.sessions.primary.world.values.count()).toBe(before)
})

it('grants no CORS on the control API to a foreign origin, preflights included', async () => {
  const preflight = await send(running, 'OPTIONS', '/__mock/state', {
    ...evil,
    'access-control-request-method': 'PUT',
    'access-control-request-headers': 'content-type',
  })
  expect([preflight.status, preflight.body, preflight.headers['access-control-allow-origin']]).toEqual([
    400,
    'Disallowed CORS origin',
    undefined,
  ])
  const read = await send(running, 'GET', '/__mock/fixtures', evil)
  expect(
    [read.status, read.headers['access-control-allow-origin']],
    'answered, but no page of that origin may read it',
  ).toEqual([200, undefined])
  const api = await send(running, 'GET', '/v1/personas/', evil)
  expect(
    [api.status, api.headers['access-control-allow-origin']],
    'the API answers a read of any origin, readable by trusted pages only',
  ).toEqual([401, undefined])
  const mine = await send(running, 'GET', '/v1/personas/', { origin: 'http://localhost:5173' })
  expect([mine.status, mine.headers['access-control-allow-origin']]).toEqual([401, '*'])
})

it('refuses changes to the API from a foreign page, and its preflights, even with a token it signed itself', async () => {
  const { fixtures } = running.sessions.primary
  const path = `/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`
  const preflight = await send(running, 'OPTIONS', path, {
    ...evil,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization,content-type',
  })
  expect([preflight.status, preflight.body]).toEqual([400, 'Disallowed CORS origin'])
  // The development secret is public: a page can sign a super admin's token (the fixtures' is one such).
  const write = (headers: Record<string, string>, value: string) =>
    send(
      running,
      'POST',
      path,
      { ...headers, authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      JSON.stringify({ values: [{ value }] }),
    )
  const refused = await write(evil, 'from-evil')
  expect([refused.status, JSON.parse(refused.body).detail]).toEqual([
    403,
    "Changes from https://evil.example are refused: only the developer's own pages may change the mock. Start it with --allow-origin <that origin> to trust that page.",
  ])
  expect((await write({ 'sec-fetch-site': 'cross-site' }, 'from-a-link')).status, 'no Origin, but cross-site').toBe(403)
  const values = (await send(running, 'GET', '/__mock/state')).body
  expect(values).not.toContain('from-evil')
  expect(values).not.toContain('from-a-link')
  expect((await write({ origin: 'http://localhost:5173' }, 'from-my-page')).status).toBe(201)
  expect((await write({}, 'from-a-tool')).status).toBe(201)
  const trustingWorld = trusting.sessions.primary.fixtures
  const writeTrusting = (origin: string, value: string) =>
    send(
      trusting,
      'POST',
      `/v1/demographics/${trustingWorld.dimensions[0]!.id}/values/bulk`,
      { origin, authorization: `Bearer ${trustingWorld.tokens.super_admin}`, 'content-type': 'application/json' },
      JSON.stringify({ values: [{ value }] }),
    )
  const trustedPage = await writeTrusting('https://app.example', 'from-allowed')
  expect([trustedPage.status, trustedPage.headers['access-control-allow-origin']]).toEqual([201, '*'])
  const ownPage = await writeTrusting('http://mock.test:8080', 'from-its-own-docs')
  expect(ownPage.status, "a page served under one of the server's own names (its /docs on a LAN name)").toBe(201)
})

it('refuses an --allow-origin that is not an origin, saying what one is', async () => {
  await expect(startTestServer({ allowOrigins: ['app.example'] })).rejects.toThrow(
    '--allow-origin takes an origin such as http://app.test:3000, got "app.example"',
  )
})

it('trusts loopback pages on any port, and origins named with allowOrigins', async () => {
  for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
    const reset = await send(running, 'POST', '/__mock/reset', { origin })
    expect([reset.status, reset.headers['access-control-allow-origin']], origin).toEqual([200, origin])
  }
  expect((await send(running, 'POST', '/__mock/reset', { origin: 'https://app.example' })).status).toBe(403)
  const trusted = await send(trusting, 'POST', '/__mock/reset', { origin: 'https://app.example' })
  expect([trusted.status, trusted.headers['access-control-allow-origin']]).toEqual([200, 'https://app.example'])
})

it('takes control bodies as JSON only, whoever sends them', async () => {
  const form = await send(
    running,
    'POST',
    '/__mock/reset',
    { 'content-type': 'application/x-www-form-urlencoded' },
    'seed=4',
  )
  expect([form.status, JSON.parse(form.body).detail]).toEqual([
    415,
    'Control requests with a body must say Content-Type: application/json.',
  ])
  expect(
    (await send(running, 'POST', '/__mock/reset', { 'content-type': 'application/json' }, '{"personas":3}')).status,
  ).toBe(200)
  expect((await send(running, 'POST', '/__mock/reset')).status, 'no body, no content type needed').toBe(200)
})

it('answers the control API only under its own or a loopback host name, which stops DNS rebinding', async () => {
  const rebound = await send(running, 'GET', '/__mock/fixtures', { host: 'attacker.example:4010' })
  expect([rebound.status, JSON.parse(rebound.body).detail]).toEqual([
    403,
    'Host not allowed: attacker.example:4010. Start the mock with --allowed-host attacker.example to use its control API under that name.',
  ])
  expect(
    (await send(running, 'GET', '/v1/personas/', { host: 'attacker.example:4010' })).status,
    'the API is left alone',
  ).toBe(401)
  for (const host of ['localhost:4010', '127.0.0.1', '[::1]:4010'])
    expect((await send(running, 'GET', '/__mock/health', { host })).status, host).toBe(200)
  expect((await send(trusting, 'GET', '/__mock/health', { host: 'mock.test:8080' })).status).toBe(200)
})
