/**
 * An answer that fails while the standalone server writes it (a handler's body that cannot be read, a header Node
 * refuses) becomes Starlette's plain 500, with nothing of the failed answer, and the connection stays usable.
 * Reached through the public `use()` of the server and `mockMiddleware`: an msw handler answers as a user's would.
 */
import { Agent, request as rawRequest, type IncomingHttpHeaders } from 'node:http'
import express from 'express'
import { http as mswHttp, type RequestHandler } from 'msw'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import type { ScenarioContext } from 'agent-console-mock'
import { mockMiddleware, type RunningServer } from 'agent-console-mock/server'
import { loggedErrors, startTestServer } from '../support/server.js'

let running: RunningServer
/** One agent that keeps connections: a request goes on a connection an earlier answer left open. */
let agent: Agent

beforeAll(async () => {
  const brokenScenario = { name: 'broken-body', description: 'personas answered unreadably', apply: overridePersonas }
  running = await startTestServer({ seed: 31, scenarios: [brokenScenario] })
})
afterEach(() => {
  running.resetHandlers()
  agent?.destroy()
})
afterAll(() => running.close())

interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

function send(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const req = rawRequest({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      )
    })
    // The server may answer before it reads the body: the rest of it is then not written.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)))
    req.end(body)
  })
}

/** An answer of status 201 whose body fails as it is read, with headers of its own. */
const unreadable = () =>
  new Response(
    new ReadableStream({
      pull(controller) {
        controller.error(new Error('planted body failure'))
      },
    }),
    { status: 201, headers: { 'content-type': 'application/json', 'content-length': '10', 'x-planted': 'yes' } },
  )

const brokenBody: RequestHandler = mswHttp.all('*/broken', unreadable)
const overridePersonas = ({ override }: ScenarioContext) => override('list_personas', unreadable)

/** Starlette's 500 and nothing of the failed answer: its status, its content-length, its own headers. */
function expectPlain500(answer: RawAnswer): void {
  expect([answer.status, answer.body, answer.headers['content-type'], answer.headers['content-length']]).toEqual([
    500,
    'Internal Server Error',
    'text/plain; charset=utf-8',
    '21',
  ])
  expect(answer.headers).not.toHaveProperty('x-planted')
}

it('answers a body that cannot be read with a clean 500, logs it, and answers on that connection', async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  running.use(brokenBody)
  const errors = loggedErrors.length
  expectPlain500(await send(running.url, 'GET', '/broken'))
  expect(loggedErrors.slice(errors).join('\n')).toMatch(/GET \/broken failed: .*planted body failure/)
  const next = await send(running.url, 'GET', '/__mock/health')
  expect([next.status, next.body]).toEqual([200, '{"status":"ok"}'])
})

it('answers a scenario override’s body that cannot be read with the same clean 500', async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const { tokens } = running.sessions.primary.fixtures
  const headers = { authorization: `Bearer ${tokens.team_reader}`, 'x-mock-scenario': 'broken-body' }
  const errors = loggedErrors.length
  expectPlain500(await send(running.url, 'GET', '/v1/personas/', undefined, headers))
  expect(loggedErrors.slice(errors).join('\n')).toMatch(/GET \/v1\/personas\/ failed: .*planted body failure/)
  const next = await send(running.url, 'GET', '/__mock/health')
  expect([next.status, next.body]).toEqual([200, '{"status":"ok"}'])
})

it('sends its 500 without the headers a failed answer had set', async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  // Fetch takes a DEL in a header value, Node's server does not: the headers before it are set when it throws.
  running.use(
    mswHttp.get('*/bad-header', () => new Response('ok', { headers: { 'a-planted': 'yes', 'x-bad': 'a\x7fb' } })),
  )
  const answer = await send(running.url, 'GET', '/bad-header')
  expectPlain500(answer)
  expect(answer.headers).not.toHaveProperty('a-planted')
})

it('closes the connection after a 500 that left the request body unread, and the next request is answered', async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  running.use(brokenBody)
  // Larger than what Node reads ahead of the handler: most of it is still unread when the answer goes out.
  const answer = await send(running.url, 'POST', '/broken', 'x'.repeat(4 * 1024 * 1024))
  expectPlain500(answer)
  expect(answer.headers.connection, 'the unread body would hold up the next request').toBe('close')
  const next = await send(running.url, 'GET', '/__mock/health')
  expect([next.status, next.body]).toEqual([200, '{"status":"ok"}'])
})

it('writes nothing of an answer before its body is read: a host’s own 500 carries none of it', async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  // mockMiddleware alone, in an app with Express's own error answer: it sees the response as the failure left it.
  const app = express().use(mockMiddleware({ handlers: () => [brokenBody] }))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const { port } = server.address() as { port: number }
    const answer = await send(`http://127.0.0.1:${port}`, 'GET', '/broken')
    expect(answer.status).toBe(500)
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(answer.headers).not.toHaveProperty('x-planted')
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})
