/**
 * Methods the Fetch API cannot carry and Node's parser does not know, on the standalone server: each
 * answered as uvicorn hands it to Starlette's router (test/fastapi/methods.test.ts compares with real
 * FastAPI): 405 with `allow` on an operation's path, the trailing-slash 307, 404 elsewhere.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { answersIn, sendRawBytes, sendRawHead } from '../support/raw-socket.js'
import { loggedErrors, startTestServer } from '../support/server.js'

let running: RunningServer
beforeAll(async () => {
  running = await startTestServer()
})
afterAll(() => running.close())

const METHODS = ['TRACE', 'TRACK', 'CONNECT', 'FOOBAR', 'get', 'Post', 'PROPFIND']

it.each(METHODS)('answers %s on an operation’s path with 405 and its allow', async (method) => {
  const answer = await sendRawHead(running.url, method, '/v1/personas/')
  expect(answer.status).toBe(405)
  expect(answer.headers['allow']).toBe('GET')
  expect(answer.headers['content-type']).toBe('application/json')
  expect(answer.body).toBe('{"detail":"Method Not Allowed"}')
})

it.each(METHODS)('answers %s with the trailing-slash redirect and with 404 elsewhere', async (method) => {
  const redirect = await sendRawHead(running.url, method, '/v1/personas')
  expect(redirect.status).toBe(307)
  expect(new URL(redirect.headers['location'] ?? '').pathname).toBe('/v1/personas/')
  const missing = await sendRawHead(running.url, method, '/nowhere')
  expect(missing.status).toBe(404)
  expect(missing.body).toBe('{"detail":"Not Found"}')
})

it('answers FastAPI’s own routes and the control API the same way', async () => {
  const docs = await sendRawHead(running.url, 'TRACE', '/openapi.json')
  expect([docs.status, docs.headers['allow']]).toEqual([405, 'GET, HEAD'])
  const control = await sendRawHead(running.url, 'foobar', '/__mock/health')
  expect(control.status).toBe(405)
})

it('journals the method as it was sent', async () => {
  await fetch(`${running.url}/__mock/requests`, { method: 'DELETE' })
  for (const method of ['TRACE', 'get']) await sendRawHead(running.url, method, '/v1/personas/')
  const journal = (await (await fetch(`${running.url}/__mock/requests`)).json()) as {
    requests: Array<{ method: string; status: number }>
  }
  expect(journal.requests.map(({ method, status }) => [method, status])).toEqual(
    expect.arrayContaining([
      ['TRACE', 405],
      ['get', 405],
    ]),
  )
})

it('answers a head it cannot read with uvicorn’s 400, and keeps serving', async () => {
  const bad = await sendRawHead(running.url, 'GET', '/v1/personas/ HTTP/1.1\r\nBad Header\r\nX:')
  expect([bad.status, bad.headers['content-type'], bad.body]).toEqual([
    400,
    'text/plain; charset=utf-8',
    'Invalid HTTP request received.',
  ])
  // No version: HTTP/0.9 to Node's parser (it was answered 401), no request to h11.
  const unversioned = await sendRawBytes(running.url, 'GET /v1/personas/\r\n\r\n')
  expect(unversioned).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\nInvalid HTTP request received\.$/)
  // A method Node does not know with a field Fetch cannot carry: the same 400 (it was a 500 and a logged error).
  for (const method of ['FOOBAR', 'get']) {
    for (const field of ['X Y: z', 'X: a\nb']) {
      const refused = await sendRawHead(running.url, method, `/v1/personas/ HTTP/1.1\r\n${field}\r\nX:`)
      expect(refused.status, `${method} with ${JSON.stringify(field)}`).toBe(400)
    }
  }
  expect(loggedErrors).toEqual([])
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
})

/** Sends raw bytes on a connection kept alive and reads one answer (the socket closed after it, or in 5 s: a hang guard). */
function sendRaw(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    let text = ''
    const guard = setTimeout(() => socket.destroy(), 5000)
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0)
      if (end >= 0 && text.length >= end + 4 + length) socket.end()
    })
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(guard)
      resolve(text)
    })
  })
}

it('answers a request followed by bytes that are no request, and answers on (it used to crash the server)', async () => {
  // What node:http's client sends for a GET given a body: no length, no chunks, the bytes right after the head. As
  // h11 does, the server reads them as the next request: not whole yet, or one it answers in turn.
  const head = 'GET /v1/personas/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
  for (const rest of ['xxxxxxxxxx', '{"k": 1}'])
    expect(await sendRaw(running.url, head + rest)).toMatch(/^HTTP\/1\.1 401 /)
  const next = answersIn(await sendRawBytes(running.url, `${head}FOOBAR / HTTP/1.1\r\n\r\n`))
  expect(next.map(({ status }) => status)).toEqual([401, 404])
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
})

it('refuses a chunked body it cannot read with 400 and closes, and answers on (it used to hang)', async () => {
  const head = 'POST /v1/demographics/age/values/bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n'
  const answer = await sendRaw(running.url, `${head}content-type: application/json\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`)
  expect(answer).toMatch(/^HTTP\/1\.1 400 /)
  expect(answer).toMatch(/\r\nconnection: close\r\n/i)
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
})

it('answers a method Node does not know sent with a body, as without one (it used to close unanswered)', async () => {
  for (const method of ['FOOBAR', 'get']) {
    const head = `${method} /v1/personas/ HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n`
    const answer = await sendRaw(running.url, `${head}content-length: 2\r\n\r\n{}`)
    expect(answer, method).toMatch(/^HTTP\/1\.1 405 /)
    expect(answer, method).toMatch(/\{"detail":"Method Not Allowed"\}$/)
  }
})

it("answers CONNECT to an authority as Starlette's router does: 404 JSON (it was Express's page)", async () => {
  const { host } = new URL(running.url)
  const answer = await sendRaw(running.url, `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
  expect(answer).toMatch(/^HTTP\/1\.1 404 /)
  expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i)
  expect(answer).toMatch(/\r\n\r\n\{"detail":"Not Found"\}$/)
})

it('answers a request whose Expect is not 100-continue as uvicorn does: as any other (Node answered 417)', async () => {
  const head = 'GET /v1/personas/ HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nConnection: close\r\n'
  const token = running.sessions.primary.fixtures.tokens.team_reader
  const answer = await sendRaw(running.url, `${head}Authorization: Bearer ${token}\r\n\r\n`)
  expect(answer).toMatch(/^HTTP\/1\.1 200 /)
  expect(answer).toMatch(/\r\n\r\n\{"results":\[/)
})

it('answers the first of two unknown-method requests on one connection, and lives (the second crashed it)', async () => {
  const { hostname, port } = new URL(running.url)
  for (const method of ['FOOBAR', 'get']) {
    const answer = await new Promise<string>((resolve, reject) => {
      // Half open, as a raw client stays: it may still send once the server has ended its side.
      const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () => {
        socket.write(`${method} /nowhere HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`)
        // The second comes once Node's parser has failed on the first: another clientError on that socket.
        setTimeout(() => {
          socket.write(`${method} /nowhere HTTP/1.1\r\nHost: x\r\n\r\n`)
          setTimeout(() => socket.end(), 200)
        }, 200)
      })
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
      socket.on('error', reject)
      socket.on('close', () => resolve(text))
    })
    expect(answer, method).toMatch(/^HTTP\/1\.1 404 /)
    expect(answer.match(/HTTP\/1\.1/g), 'one answer, then the connection closes').toHaveLength(1)
  }
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
})

it('answers the requests before bytes it cannot read, whole and in order, then refuses them (a change was kept unanswered)', async () => {
  const body = JSON.stringify({ now: '2031-01-02T03:04:05Z', frozen: true })
  const put = `PUT /__mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`
  for (const unread of [
    'GET /nowhere\r\n\r\n',
    'POST /nowhere HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  ]) {
    const answers = answersIn(await sendRawBytes(running.url, put + unread))
    expect(
      answers.map(({ status }) => status),
      unread,
    ).toEqual([200, 400])
    expect(JSON.parse(answers[0]!.body).now, 'the change is answered').toBe('2031-01-02T03:04:05.000Z')
    expect(answers[1]!.body).toBe('Invalid HTTP request received.')
  }
  await fetch(`${running.url}/__mock/clock`, { method: 'DELETE' })
})

it('answers CONNECT after a request on the same connection, and lives (it crashed the server)', async () => {
  const bytes = 'GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\nCONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n'
  expect(answersIn(await sendRawBytes(running.url, bytes)).map(({ status }) => status)).toEqual([404, 404])
  expect((await fetch(`${running.url}/__mock/health`)).status).toBe(200)
})

it('reads the head of a method Node does not know when it comes in pieces', async () => {
  const { hostname, port } = new URL(running.url)
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write('FOOBAR /v1/personas/ HTTP/1.1\r\nHost: a\r\n')
      setTimeout(() => socket.write('\r\n'), 200)
    })
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => resolve(text))
  })
  expect(answersIn(answer)).toEqual([{ status: 405, body: '{"detail":"Method Not Allowed"}' }])
})
