import { readFileSync } from 'node:fs'
import { request as rawRequest } from 'node:http'
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { sendRawHead } from '../support/raw-socket.js'
import { http, loggedErrors, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
let tokens: RunningServer['sessions']['primary']['fixtures']['tokens']

beforeAll(async () => {
  running = await startTestServer({ seed: 12 })
  call = http(running)
  tokens = running.sessions.primary.fixtures.tokens
})
afterAll(() => running.close())

/** A request with exact bytes on the wire (fetch would normalise the path). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(running.url)
  return new Promise((resolve, reject) => {
    const req = rawRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

it('answers the API over HTTP with FastAPI’s bytes and headers', async () => {
  const res = await call('/v1/personas/?limit=0', { token: tokens.team_reader })
  expect(res.status).toBe(422)
  expect(res.text).toBe(
    '{"detail":[{"type":"greater_than_equal","loc":["query","limit"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}}]}',
  )
  expect([res.headers.get('content-type'), res.headers.get('content-length'), res.headers.get('x-powered-by')]).toEqual(
    ['application/json', String(Buffer.byteLength(res.text)), null],
  )
})

it('redirects with a location built from the Host header, keeping the query', async () => {
  const res = await raw('GET', '/v1/personas?limit=5&intents=a%20b', { host: 'api.example.test:8080' })
  expect([res.status, res.headers.location, res.headers['content-length']]).toEqual([
    307,
    'http://api.example.test:8080/v1/personas/?limit=5&intents=a%20b',
    '0',
  ])
  // The header as sent, as Starlette copies it: a URL would lower its case and drop the default port.
  for (const host of ['API.Example.test', 'api.example.test:80', '127.1:8000']) {
    const sent = await raw('GET', '/v1/personas', { host })
    expect(sent.headers.location).toBe(`http://${host}/v1/personas/`)
  }
  // One that is not `host[:port]` gives way to the address the request came in on, as uvicorn's server address does.
  const { host } = new URL(running.url)
  for (const unusable of ['a b', 'a/b', '[::1', 'user@host'])
    expect((await raw('GET', '/v1/personas', { host: unusable })).headers.location, unusable).toBe(
      `http://${host}/v1/personas/`,
    )
})

it('repeats a POST with its body when the client follows the 307', async () => {
  const path = `/v1/demographics/${running.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk/`
  const res = await fetch(running.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.super_admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: [{ value: 'via-redirect' }] }),
  })
  expect(res.status).toBe(201)
  expect(((await res.json()) as Array<{ value: string }>)[0]!.value).toBe('via-redirect')
})

it('answers 404 and 405 as FastAPI, HEAD and OPTIONS included', async () => {
  expect(await raw('GET', '/nope')).toMatchObject({ status: 404, body: '{"detail":"Not Found"}' })
  expect(await raw('DELETE', '/v1/personas/')).toMatchObject({
    status: 405,
    body: '{"detail":"Method Not Allowed"}',
    headers: { allow: 'GET' },
  })
  const head = await raw('HEAD', '/v1/personas/')
  expect([head.status, head.headers.allow, head.headers['content-length'], head.body]).toEqual([405, 'GET', '31', ''])
  expect(await raw('OPTIONS', '/v1/personas/')).toMatchObject({ status: 405, headers: { allow: 'GET' } })
})

it('passes repeated query parameters and raw invalid JSON to the handlers', async () => {
  const listed = await call('/v1/personas/?intents=benign&intents=malicious&limit=100', { token: tokens.team_reader })
  expect(new Set(listed.json.results.map((p: { intent: string }) => p.intent))).toEqual(
    new Set(['benign', 'malicious']),
  )
  const path = `/v1/demographics/${running.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk`
  const invalid = await raw('POST', path, { 'content-type': 'application/json' }, '{"values": [1,]}')
  expect(invalid.body).toBe(
    '{"detail":[{"type":"json_invalid","loc":["body",14],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
  )
})

it('refuses a body over the limit with 413 without reading it all', async () => {
  const path = `/v1/demographics/${running.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk`
  const res = await raw(
    'POST',
    path,
    { 'content-type': 'application/json', authorization: `Bearer ${tokens.super_admin}` },
    `{"values":[{"value":"${'x'.repeat(1024 * 1024)}"}]}`,
  )
  expect([res.status, res.body]).toEqual([413, '{"detail":"Request body too large"}'])
})

it('answers CORS as Starlette’s CORSMiddleware does: a preflight, then the simple headers', async () => {
  const preflight = await raw('OPTIONS', '/v1/personas/', {
    origin: 'http://localhost:5173',
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization',
  })
  expect([preflight.status, preflight.body, preflight.headers['content-type']]).toEqual([
    200,
    'OK',
    'text/plain; charset=utf-8',
  ])
  expect(preflight.headers).toMatchObject({
    vary: 'Origin',
    'access-control-allow-origin': 'http://localhost:5173',
    'access-control-allow-credentials': 'true',
    'access-control-allow-headers': 'authorization',
    'access-control-max-age': '600',
  })
  expect(preflight.headers['access-control-allow-methods']).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT')
  const refused = await raw('OPTIONS', '/v1/personas/', {
    origin: 'http://localhost:5173',
    'access-control-request-method': 'PROPFIND',
  })
  expect([refused.status, refused.body]).toEqual([400, 'Disallowed CORS method'])
  const cross = await raw('GET', '/v1/personas/', { origin: 'http://localhost:5173' })
  expect([
    cross.status,
    cross.headers['access-control-allow-origin'],
    cross.headers['access-control-expose-headers'],
  ]).toEqual([401, '*', expect.stringContaining('www-authenticate')])
  const withCookie = await raw('GET', '/v1/personas/', { origin: 'http://localhost:5173', cookie: 'a=b' })
  expect([withCookie.headers['access-control-allow-origin'], withCookie.headers.vary]).toEqual([
    'http://localhost:5173',
    'Origin',
  ])
  const same = await raw('GET', '/v1/personas/')
  expect(same.headers['access-control-allow-origin']).toBeUndefined()
})

it('answers no CORS at all when switched off, as a FastAPI app without the middleware', async () => {
  const plain = await startTestServer({ cors: false })
  try {
    const preflight = await fetch(`${plain.url}/v1/personas/`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    })
    expect([
      preflight.status,
      preflight.headers.get('allow'),
      preflight.headers.get('access-control-allow-origin'),
    ]).toEqual([405, 'GET', null])
  } finally {
    await plain.close()
  }
})

it('closes the connection for an injected dropped connection', async () => {
  await call('/__mock/faults', { method: 'PUT', json: { drop: { rate: 1 } } })
  await expect(fetch(`${running.url}/v1/personas/`)).rejects.toThrow()
  await call('/__mock/faults', { method: 'PUT', json: {} })
  expect((await call('/v1/personas/')).status).toBe(401)
})

it('serves the msw worker script of the installed msw (whichever major)', async () => {
  const res = await call('/mockServiceWorker.js')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('javascript')
  const installed = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8')
  expect(res.text === installed, 'the bytes of msw/mockServiceWorker.js').toBe(true)
  const { version } = createRequire(import.meta.url)('msw/package.json')
  expect(res.text).toContain(`const PACKAGE_VERSION = '${version}'`)
})

it('logged no error', () => {
  expect(loggedErrors).toEqual([])
})

it('serves /openapi.json as FastAPI writes it, and offline docs at /docs', async () => {
  const { Validator } = await import('@seriousme/openapi-schema-validator')
  const document = await call('/openapi.json')
  expect([document.status, document.headers.get('content-type')]).toEqual([200, 'application/json'])
  expect(
    document.text.startsWith(
      '{"openapi":"3.1.0","info":{"title":"Agent Management Console API","version":"0.1.0"},"paths":{',
    ),
  ).toBe(true)
  expect(document.text).not.toContain('__mock')
  expect((await new Validator().validate(document.json)).valid).toBe(true)
  const docs = await call('/docs')
  expect([docs.status, docs.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')])
  expect(docs.text).toContain('/openapi.json')
  expect(docs.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/)
  const scripts = [...docs.text.matchAll(/(?:src|href)="(\/__mock\/docs-assets\/[^"]+)"/g)].map((match) => match[1]!)
  expect(scripts.length).toBeGreaterThanOrEqual(2)
  for (const asset of scripts) expect((await call(asset)).status, asset).toBe(200)
})

it('logs no error for a client that goes away in the middle of its body', async () => {
  const errors = loggedErrors.length
  const url = new URL(running.url)
  const path = `/v1/demographics/${running.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk`
  await new Promise<void>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"va`,
      )
      setTimeout(() => socket.destroy(), 100) // gone, 96 bytes short
    })
    socket.on('close', () => resolve())
    socket.on('error', () => resolve())
  })
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
  expect(loggedErrors.slice(errors), 'its going is not a failure of the mock').toEqual([])
})

it('refuses a docs asset it does not have, or a condition the asset does not meet, as FastAPI refuses: no 500', async () => {
  const errors = loggedErrors.length
  const missing = await raw('GET', '/__mock/docs-assets/no-such-file.js')
  expect([missing.status, missing.headers['content-type'], missing.body]).toEqual([
    404,
    'application/json',
    '{"detail":"Not Found"}',
  ])
  const unmet = await raw('GET', '/__mock/docs-assets/swagger-ui.css', { 'if-match': '"another"' })
  expect([unmet.status, unmet.body]).toEqual([412, '{"detail":"Precondition Failed"}'])
  expect(unmet.headers, 'nothing of the asset goes with the refusal').not.toHaveProperty('etag')
  // Starlette's StaticFiles reads only; its folder is no page (serve-static answered 405 empty, and a 301 page).
  for (const method of ['POST', 'DELETE']) {
    const refused = await raw(method, '/__mock/docs-assets/swagger-ui.css')
    expect([refused.status, refused.body], method).toEqual([405, '{"detail":"Method Not Allowed"}'])
  }
  const folder = await raw('GET', '/__mock/docs-assets')
  expect([folder.status, folder.body]).toEqual([404, '{"detail":"Not Found"}'])
  const lowerCase = await sendRawHead(running.url, 'get', '/__mock/docs-assets/swagger-ui.css')
  expect(lowerCase.status).toBe(405)
  expect((await sendRawHead(running.url, 'get', '/mockServiceWorker.js')).status, 'as any path of no route').toBe(404)
  expect(loggedErrors.slice(errors), 'a client’s mistake is not a failure of the mock').toEqual([])
})

it('turns an exception in a handler into a logged 500 as Starlette answers it, and keeps serving', async () => {
  const { http: mswHttp } = await import('msw')
  const errors: string[] = []
  const broken = await startTestServer({
    logger: { info: () => undefined, error: (message, error) => void errors.push(`${message} ${String(error)}`) },
  })
  broken.use(
    mswHttp.get('*/boom', () => {
      throw new Error('planted failure')
    }),
  )
  try {
    const boom = await http(broken)('/boom')
    expect([boom.status, boom.text, boom.headers.get('content-type')]).toEqual([
      500,
      'Internal Server Error',
      'text/plain; charset=utf-8',
    ])
    expect(errors.join('\n')).toMatch(/GET \/boom failed: .*planted failure/)
    expect((await http(broken)('/__mock/health')).status).toBe(200)
  } finally {
    await broken.close()
  }
})

it('answers HEAD on every GET route of its own as Starlette does, for health probes such as wait-on', async () => {
  for (const path of ['/openapi.json', '/docs', '/__mock/health', '/__mock/fixtures']) {
    const [head, get] = [await raw('HEAD', path), await raw('GET', path)]
    expect([head.status, head.body, head.headers['content-length'], head.headers['content-type']], path).toEqual([
      200,
      '',
      get.headers['content-length'],
      get.headers['content-type'],
    ])
  }
  expect(await raw('POST', '/openapi.json')).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } })
})

it('redirects the slash twins of its own routes and serves the docs page’s OAuth2 redirect page', async () => {
  for (const [path, location] of [
    ['/docs/', '/docs'],
    ['/openapi.json/', '/openapi.json'],
  ] as const) {
    const res = await raw('GET', path, { host: 'mock.test:4010' })
    expect([res.status, res.headers.location], path).toEqual([307, `http://mock.test:4010${location}`])
  }
  const redirect = await raw('GET', '/docs/oauth2-redirect')
  expect([redirect.status, redirect.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8'])
  const script = /<script src="([^"]+)"/.exec(redirect.body)?.[1]
  expect((await raw('GET', script ?? '/missing')).body).toContain('swaggerUIRedirectOauth2')
})
