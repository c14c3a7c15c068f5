import { createServer, request as rawRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockApp, type MockApp } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

const JSON_BODY = { 'content-type': 'application/json' }

/**
 * Embedders mount the mock's Express app inside their own: it must give the same bytes
 * there as on its own.
 */
let mock: MockApp
let viaListener: Server
let viaExpress: Server

const listen = (handler: Parameters<typeof createServer>[1]) =>
  new Promise<Server>((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => resolve(server))
  })

beforeAll(async () => {
  mock = await createMockApp({ seed: 5, personasPerTeam: 30, logger: { error: () => undefined } })
  viaListener = await listen(mock.app)
  const embedding = express().disable('x-powered-by')
  embedding.get('/health', (_req, res) => void res.send('ok'))
  embedding.use(mock.app)
  viaExpress = await listen(embedding)
})
afterAll(() => Promise.all([viaListener, viaExpress].map((server) => new Promise((resolve) => server.close(resolve)))))

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function send(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const req = rawRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: 'mock.test', ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers
          resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks) })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

it('gives the same status, headers and bytes mounted in another Express app as on its own', async () => {
  const { tokens, dimensions, policies } = mock.sessions.primary.fixtures
  const auth = { authorization: `Bearer ${tokens.super_admin}` }
  const origin = { origin: 'http://app.test' }
  const cases: Array<[string, string, Record<string, string>, string?]> = [
    ['GET', '/v1/personas/?limit=3&offset=2', auth],
    ['GET', '/v1/personas/?intents=curious&search=a', { ...auth, ...origin }],
    ['GET', `/v1/policies/${policies[0]!.id}/rules?limit=2`, auth],
    ['GET', '/v1/personas/?limit=0', auth],
    ['GET', '/v1/personas', auth],
    ['HEAD', '/v1/personas/', auth],
    ['DELETE', '/v1/personas/', auth],
    ['OPTIONS', '/v1/personas/', { ...origin, 'access-control-request-method': 'GET' }],
    [
      'POST',
      `/v1/demographics/${dimensions[0]!.id}/values/bulk`,
      { ...auth, 'content-type': 'application/json' },
      '{"values":[{"value":"x","metadata":{"a":1.0}}',
    ],
    ['GET', '/nowhere', {}],
    ['GET', '/openapi.json', {}],
    ['GET', '/docs', {}],
    ['GET', '/mockServiceWorker.js', {}],
    ['GET', '/__mock/docs-assets/swagger-ui.css', {}],
    ['GET', '/__mock/health', origin],
    ['GET', 'http://elsewhere.test/mockServiceWorker.js', {}],
    ['GET', 'http://elsewhere.test/v1/personas/?limit=1', auth],
  ]
  for (const [method, path, headers, body] of cases) {
    const [lean, express] = [
      await send(viaListener, method, path, headers, body),
      await send(viaExpress, method, path, headers, body),
    ]
    expect(lean, `${method} ${path}`).toEqual(express)
    expect(lean.status, `${method} ${path}`).not.toBe(500)
  }
})

it('writes imported records holding floats, big integers and lone surrogates as Python would', async () => {
  const running = await startTestServer({ seed: 3, personasPerTeam: 2 })
  try {
    const call = http(running)
    const team = running.sessions.primary.fixtures.teams[0]!.id
    const exported = await call('/__mock/state')
    const odd =
      '{"ratio":1e-07,"whole":2.5,"big":123456789012345678901,"safe":-0,"text":"\\ud800","list":[1.5,{"b":1,"a":[]}]}'
    const state = exported.json
    const persona = state.world.personas.find((p: { team_id: string }) => p.team_id === team)
    persona.access_permissions = '__ODD__'
    // JSON.parse would lose the big integer and the escape: the odd values go in as text.
    const edited = JSON.stringify(state).replace('"__ODD__"', odd)
    expect((await call('/__mock/state', { method: 'PUT', body: edited, headers: JSON_BODY })).status).toBe(200)
    const listed = await call(`/v1/personas/?team_id=${team}&search=${encodeURIComponent(persona.name)}&limit=100`, {
      token: running.sessions.primary.fixtures.tokens.super_admin,
    })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.text).toContain(
      `"access_permissions":{"ratio":1e-07,"whole":2.5,"big":123456789012345678901,"safe":0,"text":"\\ud800","list":[1.5,{"b":1,"a":[]}]}`,
    )
  } finally {
    await running.close()
  }
})

it("writes an answer's headers in the order Starlette sets them, not by name", async () => {
  const names = async (path: string, method = 'GET', headers: Record<string, string> = {}) => {
    const { port } = viaListener.address() as AddressInfo
    const answer = await fetchRaw(port, method, path, headers)
    return answer.filter((_, index) => index % 2 === 0).filter((name) => !/^(date|connection|keep-alive)$/i.test(name))
  }
  // HTTPException(headers=...) then JSONResponse: the given headers first, then content-length and content-type.
  expect(await names('/v1/personas/')).toEqual(['www-authenticate', 'content-length', 'content-type'])
  expect(await names('/v1/personas/', 'DELETE')).toEqual(['allow', 'content-length', 'content-type'])
  expect(await names('/v1/personas')).toEqual(['content-length', 'location'])
  // CORSMiddleware's preflight: its headers as it sets them, then PlainTextResponse's.
  const preflight = {
    origin: 'http://localhost:3000',
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization',
  }
  expect(await names('/v1/personas/', 'OPTIONS', preflight)).toEqual([
    'vary',
    'access-control-allow-methods',
    'access-control-max-age',
    'access-control-allow-credentials',
    'access-control-allow-origin',
    'access-control-allow-headers',
    'content-length',
    'content-type',
  ])
})

/** The raw header names and values of an answer, in the order they came. */
function fetchRaw(port: number, method: string, path: string, headers: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = rawRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.rawHeaders))
    })
    req.on('error', reject)
    req.end()
  })
}
