/**
 * The `mock` fixture's routing, with no demo: each page comes from a small HTTP server of this file's own,
 * the fixture answers the page's API requests in the test process, and what it does not answer reaches that
 * server. Runs with the demo's tests, and alone on each msw major (fixture.config.ts).
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { http, HttpResponse, passthrough, ws } from 'msw'
import { expect, test } from 'agent-console-mock/playwright'

// Not the demo's requests: they stay out of the contract the e2e run records and replays ('' records none;
// undefined would fall back to the config's file).
test.use({ recordContract: '' })

let server: Server
let origin: string

test.beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', request.url === '/' ? 'text/html' : 'text/plain')
    response.end(request.url === '/' ? '<!doctype html><title>fixture</title>' : `server: ${request.url}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

type Answer = { status: number; statusText: string; text: string }

/** The page's `fetch` of a path, as the page sees the answer. */
async function call(page: Page, path: string, init: RequestInit = {}): Promise<Answer> {
  if (page.url() !== `${origin}/`) await page.goto(origin)
  return page.evaluate(
    async ([path, init]) => {
      const response = await fetch(path, init)
      const { status, statusText } = response
      return { status, statusText, text: await response.text() }
    },
    [path, init] as const,
  )
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })

test('answers the page from the test’s world, reading its headers', async ({ page, mock }) => {
  const team = mock.fixtures.teams[0]!.id
  const listed = await call(page, '/v1/personas/?limit=2', bearer(mock.fixtures.tokens.team_reader))
  expect(listed.status).toBe(200)
  expect(JSON.parse(listed.text).total).toBe(mock.world.personasByTeam().get(team)!.ordered.length)
  expect((await call(page, '/v1/personas/?limit=2')).status).toBe(401)
})

test('a posted body lands in the test’s world', async ({ page, mock }) => {
  const dimension = mock.fixtures.dimensions[0]!.id
  const before = mock.world.values.all().length
  const { headers } = bearer(mock.fixtures.tokens.super_admin)
  const added = await call(page, `/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ values: [{ value: 'Arctic', display_name: 'The Arctic' }] }),
  })
  expect(added.status).toBe(201)
  expect(mock.world.values.all()).toHaveLength(before + 1)
  expect(mock.world.values.all().find((value) => value.value === 'Arctic')).toMatchObject({
    display_name: 'The Arctic',
  })
})

test('binary bodies and headers pass both ways unchanged', async ({ page, mock }) => {
  mock.use(
    http.post('*/echo', async ({ request }) => {
      const headers = { 'content-type': 'application/octet-stream', 'x-echo': request.headers.get('x-trace') ?? '' }
      return new HttpResponse(await request.arrayBuffer(), { headers })
    }),
  )
  await page.goto(origin)
  const echoed = await page.evaluate(async () => {
    const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256)
    const response = await fetch('/echo', { method: 'POST', headers: { 'x-trace': 't-1' }, body: bytes })
    const back = new Uint8Array(await response.arrayBuffer())
    return {
      same: back.length === bytes.length && back.every((byte, i) => byte === bytes[i]),
      echo: response.headers.get('x-echo'),
    }
  })
  expect(echoed).toEqual({ same: true, echo: 't-1' })
})

test('cookies reach the handlers, and every Set-Cookie reaches the browser', async ({ page, mock }) => {
  mock.use(
    http.get('*/cookies', ({ cookies }) =>
      HttpResponse.json(cookies, {
        headers: [
          ['set-cookie', 'first=1; Path=/'],
          ['set-cookie', 'second=2; Path=/'],
        ],
      }),
    ),
  )
  await page.context().addCookies([{ name: 'theme', value: 'dark', url: origin }])
  expect(JSON.parse((await call(page, '/cookies')).text)).toEqual({ theme: 'dark' })
  const cookies = await page.context().cookies(origin)
  expect(Object.fromEntries(cookies.map(({ name, value }) => [name, value]))).toEqual({
    theme: 'dark',
    first: '1',
    second: '2',
  })
})

test('a status comes with the browser’s status text; HttpResponse.error() is a network error', async ({
  page,
  mock,
}) => {
  mock.use(
    http.get('*/v1/unavailable', () => HttpResponse.json({ detail: 'down' }, { status: 503 })),
    http.get('*/v1/dropped', () => HttpResponse.error()),
  )
  expect(await call(page, '/v1/unavailable')).toMatchObject({ status: 503, statusText: 'Service Unavailable' })
  const dropped = await page.evaluate(() =>
    fetch('/v1/dropped').then(
      () => 'answered',
      (error: Error) => error.name,
    ),
  )
  expect(dropped).toBe('TypeError')
})

test('what no handler answers, a passthrough() and asset requests reach the network', async ({ page, mock }) => {
  mock.use(
    http.get('*/v1/teams/', () => passthrough()),
    http.get('*/app.js', () => HttpResponse.text('mocked')),
  )
  expect((await call(page, '/elsewhere')).text).toBe('server: /elsewhere')
  expect((await call(page, '/v1/teams/')).text).toBe('server: /v1/teams/')
  expect((await call(page, '/app.js')).text).toBe('server: /app.js')
})

test('follows FastAPI’s 307 to the trailing slash into the mock, where a browser’s follow-up is not routed', async ({
  page,
  mock,
}) => {
  await page.goto(origin)
  const answer = await page.evaluate(async (token) => {
    const response = await fetch('/v1/personas?limit=2', { headers: { authorization: `Bearer ${token}` } })
    const { status, redirected, url } = response
    return { status, redirected, url, type: response.headers.get('content-type'), body: await response.json() }
  }, mock.fixtures.tokens.team_reader)
  // Not the page's server (`server: /v1/personas/`): the list of the test's world.
  expect(answer).toMatchObject({ status: 200, type: 'application/json' })
  expect(answer.body.results).toHaveLength(2)
  // The first request is fulfilled with the answer the redirect ends at: the page does not see the hop.
  expect(answer).toMatchObject({ redirected: false, url: `${origin}/v1/personas?limit=2` })
})

test('follows a handler’s redirect as a browser does, and leaves one the mock does not answer to the network', async ({
  page,
  mock,
}) => {
  const redirect = (status: number, location: string) => () => new HttpResponse(null, { status, headers: { location } })
  mock.use(
    http.post('*/v1/temporary', redirect(307, '/v1/echo')),
    http.post('*/v1/see-other', redirect(303, '/v1/echo')),
    http.all('*/v1/echo', async ({ request }) => HttpResponse.text(`${request.method} ${await request.text()}`)),
    http.get('*/v1/loop', redirect(302, '/v1/loop')),
    http.get('*/v1/moved', redirect(302, '/elsewhere')),
  )
  await page.goto(origin)
  const post = (path: string) => call(page, path, { method: 'POST', body: 'the body' })
  expect((await post('/v1/temporary')).text).toBe('POST the body')
  expect((await post('/v1/see-other')).text).toBe('GET ')
  const loop = await page.evaluate(() =>
    fetch('/v1/loop').then(
      () => 'answered',
      (error: Error) => error.name,
    ),
  )
  expect(loop).toBe('TypeError')
  expect((await call(page, '/v1/moved')).text).toBe('server: /elsewhere')
})

test('use() comes first until resetHandlers(); restoreHandlers() re-arms a once handler', async ({ page, mock }) => {
  const token = bearer(mock.fixtures.tokens.team_reader)
  const total = async () => JSON.parse((await call(page, '/v1/personas/', token)).text).total
  const seeded = await total()
  // A relative path: it resolves against the page that sent the request.
  mock.use(http.get('/v1/personas/', () => HttpResponse.json({ results: [], total: -1 }), { once: true }))
  expect(mock.network.listHandlers()).toHaveLength(2)
  expect(await total()).toBe(-1)
  expect(await total()).toBe(seeded)
  mock.network.restoreHandlers()
  expect(await total()).toBe(-1)
  mock.resetHandlers()
  expect(mock.network.listHandlers()).toHaveLength(1)
  expect(await total()).toBe(seeded)
})

test('reports each request as msw’s events do', async ({ page, mock }) => {
  const seen: string[] = []
  const path = (request: Request) => new URL(request.url).pathname
  await page.goto(origin)
  mock.network.events
    .on('request:start', ({ request }) => seen.push(`start ${path(request)}`))
    .on('request:match', ({ request }) => seen.push(`match ${path(request)}`))
    .on('request:unhandled', ({ request }) => seen.push(`unhandled ${path(request)}`))
    .on('response:mocked', ({ request, response }) => {
      seen.push(`mocked ${path(request)} ${response.status}`)
      void response.text() // a listener's read leaves the body to the page
    })
  expect(JSON.parse((await call(page, '/v1/personas/')).text)).toHaveProperty('detail')
  await call(page, '/elsewhere')
  // The browser's own requests (its favicon) may come in between: only the page's two count.
  expect(seen.filter((event) => !event.includes('/favicon'))).toEqual([
    'start /v1/personas/',
    'match /v1/personas/',
    'mocked /v1/personas/ 401',
    'start /elsewhere',
    'unhandled /elsewhere',
  ])
})

test('refuses WebSocket handlers, which it does not route', ({ mock }) => {
  const chat = ws.link('ws://127.0.0.1/chat')
  expect(() => mock.use(chat.addEventListener('connection', () => {}))).toThrow(/HTTP requests only/)
})

test.describe('with service workers blocked', () => {
  test.use({ serviceWorkers: 'block' })

  test('still answers the page', async ({ page, mock }) => {
    const listed = await call(page, '/v1/personas/', bearer(mock.fixtures.tokens.team_reader))
    expect(listed.status).toBe(200)
  })
})

test.describe('with a team’s own OpenAPI document', () => {
  const document = JSON.parse(readFileSync(new URL('../../openapi/openapi-3.1.json', import.meta.url), 'utf8'))
  test.use({ mockOptions: { openapi: document } })

  test('answers the document’s operations from the test’s world', async ({ page, mock }) => {
    const { headers } = bearer(mock.fixtures.tokens.team_reader)
    const agent = { name: 'Triage', kind: 'assistant', config: { model: 'm' }, tags: ['support'] }
    const created = await call(page, '/v1/agents/', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(agent),
    })
    expect(created.status).toBe(201)
    const { id } = JSON.parse(created.text)
    expect(mock.world.documented('/v1/agents')?.map((record) => record.id)).toContain(id)
    const read = await call(page, `/v1/agents/${id}`, { headers })
    expect(JSON.parse(read.text)).toMatchObject(agent)
    expect((await call(page, `/v1/agents/${id}`)).status).toBe(401)
  })
})
