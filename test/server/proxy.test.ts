/**
 * Proxy mode (server/proxy/index.ts) over real HTTP: in front of the standalone mock it hands every answer on
 * byte for byte and flags nothing; in front of a broken variant it flags the broken answers; a target that is
 * down answers 502; /__mock/* is the proxy's own, journal and HAR included.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startProxy, type RunningProxy, type RunningServer } from 'agent-console-mock/server'
import { BROKEN_VARIANTS } from '../contract/broken-variants.js'
import { closedPort, startMock } from '../contract/support/mock.js'

let mock: RunningServer
let proxy: RunningProxy
beforeAll(async () => {
  mock = await startMock()
  proxy = await startProxy({ target: mock.url, port: 0 })
})
afterAll(async () => {
  await proxy?.close()
  await mock?.close()
})

const fixtures = () => mock.sessions.primary.fixtures
const auth = (token = fixtures().tokens.team_reader) => ({ authorization: `Bearer ${token}` })
const raw = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, { redirect: 'manual', ...init })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}
/** A response body as JSON, untyped: the tests assert on its shape. */
const json = async (answer: Response | Promise<Response>): Promise<any> => (await answer).json()
/** A GET with a Host header of its own (fetch does not send one). */
const statusWithHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) =>
    request(url, { headers: { host } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
      .on('error', reject)
      .end(),
  )
const HEADERS = ['content-type', 'content-length', 'www-authenticate', 'location', 'allow', 'set-cookie']
const CORS = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-expose-headers', 'vary']

it('hands the target answers on byte for byte and flags none of them', async () => {
  const team = fixtures().teams[0]!.id
  const requests: Array<[string, RequestInit]> = [
    [`/v1/personas/?team_id=${team}&intents=benign&intents=curious&limit=7&offset=2`, { headers: auth() }],
    [`/v1/policies/${fixtures().policies[0]!.id}/rules?limit=3`, { headers: auth() }],
    ['/v1/personas/?limit=0', { headers: auth() }],
    ['/v1/personas/', {}],
    ['/v1/personas', { headers: auth() }],
    ['/v1/nothing', { method: 'DELETE' }],
    ['/v1/personas/', { method: 'POST', headers: auth() }],
    ['/openapi.json', {}],
    [
      '/v1/personas/',
      { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' } },
    ],
    ['/v1/personas/?limit=1', { headers: { ...auth(), origin: 'http://app.test' } }],
  ]
  for (const [path, init] of requests) {
    const [direct, proxied] = [await raw(mock.url + path, init), await raw(proxy.url + path, init)]
    expect(proxied.status, path).toBe(direct.status)
    expect(proxied.bytes.equals(direct.bytes), `${path}: the same bytes`).toBe(true)
    for (const name of [...HEADERS, ...CORS])
      expect(proxied.headers.get(name), `${path}: ${name}`).toBe(direct.headers.get(name))
    expect(proxied.headers.get('x-contract-violations'), path).toBeNull()
  }
  const bulk = (value: string) => ({
    method: 'POST',
    headers: { ...auth(fixtures().tokens.super_admin), 'content-type': 'application/json' },
    body: JSON.stringify({ values: [{ value, metadata: { via: 'proxy' } }] }),
  })
  const added = await raw(`${proxy.url}/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, bulk('p-1'))
  expect([added.status, (JSON.parse(added.bytes.toString()) as any)[0].value_metadata]).toEqual([201, { via: 'proxy' }])
  expect(added.headers.get('x-contract-violations')).toBeNull()
  expect((await json(fetch(`${proxy.url}/__mock/violations`))).violations).toEqual([])
})

it('journals the traffic it forwards, as JSON and as HAR', async () => {
  await fetch(`${proxy.url}/__mock/requests`, { method: 'DELETE' })
  await fetch(`${proxy.url}/v1/personas/?limit=2&search=a`, { headers: auth() })
  const { requests } = await json(fetch(`${proxy.url}/__mock/requests`))
  expect(requests).toEqual([
    expect.objectContaining({ method: 'GET', path: '/v1/personas/', query: 'limit=2&search=a', status: 200 }),
  ])
  expect(requests[0].headers.authorization, 'credentials redacted').toBe('Bearer <redacted>')
  expect(requests[0].origin, 'the server the request went to').toBe(mock.url)
  const har = await json(fetch(`${proxy.url}/__mock/requests.har`))
  expect(har.log.entries.map((entry: any) => [entry.request.url, entry.response.status])).toEqual([
    [`${mock.url}/v1/personas/?limit=2&search=a`, 200],
  ])
})

it('answers /__mock/* itself, for loopback only, with CORS for loopback pages only', async () => {
  const fixturesAnswer = await fetch(`${proxy.url}/__mock/fixtures`)
  expect(fixturesAnswer.status, 'the target control API is not reached').toBe(404)
  expect(await statusWithHost(`${proxy.url}/__mock/requests`, 'attacker.example'), 'DNS rebinding').toBe(403)
  expect(await statusWithHost(`${proxy.url}/__mock/requests`, 'localhost')).toBe(200)
  const foreign = await fetch(`${proxy.url}/__mock/violations`, { headers: { origin: 'https://attacker.example' } })
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  const local = await fetch(`${proxy.url}/__mock/violations`, { headers: { origin: 'http://localhost:5173' } })
  expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  const clear = await fetch(`${proxy.url}/__mock/requests`, {
    method: 'DELETE',
    headers: { origin: 'https://x.example' },
  })
  expect(clear.status, 'a foreign page cannot change it').toBe(403)
})

it('flags the answers of a broken server with the header, and lists them at /__mock/violations', async () => {
  const variant = BROKEN_VARIANTS.find((candidate) => candidate.bug === 'intents ignored')!
  const broken = await startMock({ handlers: variant.handlers(fixtures()) })
  const judging = await startProxy({ target: broken.url, port: 0 })
  try {
    const path = `/v1/personas/?team_id=${fixtures().teams[0]!.id}&intents=curious&limit=5`
    const answer = await fetch(judging.url + path, { headers: { ...auth(), origin: 'http://localhost:3000' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-contract-violations')).toBe('filters.intents')
    expect(answer.headers.get('access-control-expose-headers'), 'a page can read it').toContain('x-contract-violations')
    const healthy = await fetch(`${judging.url}/v1/personas/?limit=0`, { headers: auth() })
    expect([healthy.status, healthy.headers.get('x-contract-violations')]).toEqual([422, null])
    const { violations } = await json(fetch(`${judging.url}/__mock/violations`))
    expect(violations).toEqual([
      {
        seq: 1,
        method: 'GET',
        path: '/v1/personas/',
        query: path.split('?')[1],
        status: 200,
        violations: [
          { check: 'filters.intents', message: expect.stringMatching(/^\d of 5 results without intent in curious/) },
        ],
      },
    ])
    expect((await fetch(`${judging.url}/__mock/violations`, { method: 'DELETE' })).status).toBe(204)
    expect((await json(fetch(`${judging.url}/__mock/violations`))).violations).toEqual([])
  } finally {
    await judging.close()
    await broken.close()
  }
})

it('answers 502 with a clear detail when the target is down, and keeps serving', async () => {
  const down = await startProxy({ target: `http://127.0.0.1:${await closedPort()}`, port: 0 })
  try {
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${down.url}/v1/personas/`)
      expect(answer.status).toBe(502)
      expect((await json(answer)).detail).toMatch(/^The proxy could not reach the target http:\/\/127\.0\.0\.1:\d+: /)
    }
    expect((await fetch(`${down.url}/__mock/requests`)).status).toBe(200)
  } finally {
    await down.close()
  }
})
