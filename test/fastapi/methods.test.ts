/**
 * Every method as uvicorn hands it to FastAPI: the standalone mock and the reference app (FastAPI
 * 0.92 under uvicorn) give the same status, `allow`, `location` path, content type and body to
 * methods the Fetch API cannot carry and Node's parser does not know.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { answersIn, type RawAnswer, sendRawBytes, sendRawHead } from '../support/raw-socket.js'
import { startTestServer } from '../support/server.js'
import { fastApiUnavailable, startFastApi, type RunningFastApi } from './server.js'

const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/methods skipped: ${unavailable}`)

/** Bytes uvicorn's h11 and Node's parser both refuse: a head, then a body, neither can read. */
const UNREADABLE = [
  'GET /v1/personas/ HTTP/1.1\r\nBad Header\r\nX:\r\n\r\n',
  'GET /v1/personas/\r\n\r\n',
  'G\x01T /v1/personas/ HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /v1/personas/ HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
  'POST /v1/demographics/age/values/bulk HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  'POST /v1/personas/ HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
  'POST /v1/personas/ HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
]

/** Connections whose requests h11 reads in part: the answers to those before the unread bytes come first, whole. */
const PIPELINED = [
  'GET /nope HTTP/1.1\r\nHost: a\r\n\r\nCONNECT a:1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
  'GET /v1/personas HTTP/1.1\r\nHost: a\r\n\r\nGET /nope\r\n\r\n',
  'GET /nope HTTP/1.1\r\nHost: a\r\n\r\nGET /v1/personas HTTP/1.1\r\nHost: a\r\n\r\nBAD\x01 / HTTP/1.1\r\n\r\n',
  'GET /nope HTTP/1.1\r\nHost: a\r\n\r\nFOOBAR /v1/personas HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
  'GET /nope HTTP/1.1\r\nHost: a\r\n\r\nPOST /v1/demographics/x/values/bulk HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  'GET /v1/personas/ HTTP/1.1\r\n\r\n',
  'GET /v1/personas/ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
  'CONNECT a:1\r\n\r\n',
  'GET /nope HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
]

const METHODS = ['TRACE', 'TRACK', 'CONNECT', 'FOOBAR', 'PROPFIND', 'get', 'Delete']
const PATHS = ['/v1/personas/', '/v1/personas', '/v1/policies/x/rules', '/nowhere', '/openapi.json', '/docs']

/**
 * What a client may rely on: the host of a redirect is the server's own, so only its path is compared; `allow`
 * as a set, since Starlette joins a route's methods from a Python set, in an order that changes with the hash seed.
 */
const meaning = ({ status, headers, body }: RawAnswer) => ({
  status,
  allow: headers['allow']?.split(', ').sort().join(', '),
  location: headers['location'] && new URL(headers['location']).pathname,
  type: headers['content-type'],
  length: headers['content-length'],
  body,
})

describe.skipIf(unavailable)('methods, against real FastAPI', () => {
  let fastapi: RunningFastApi
  let mock: RunningServer
  beforeAll(async () => {
    ;[fastapi, mock] = await Promise.all([startFastApi(), startTestServer()])
  })
  afterAll(async () => {
    await Promise.all([fastapi?.stop(), mock?.close()])
  })

  it.each(METHODS)('answers %s on every kind of path as uvicorn does', async (method) => {
    for (const path of PATHS) {
      const [real, mocked] = await Promise.all([
        sendRawHead(fastapi.url, method, path),
        sendRawHead(mock.url, method, path),
      ])
      expect(meaning(mocked), `${method} ${path}`).toEqual(meaning(real))
    }
  })

  it.each(UNREADABLE)('refuses %j with uvicorn’s own 400, byte for byte', async (bytes) => {
    const [real, mocked] = await Promise.all([sendRawBytes(fastapi.url, bytes), sendRawBytes(mock.url, bytes)])
    expect(real).toMatch(/^HTTP\/1\.1 400 /)
    expect(mocked).toBe(real)
  })

  it.each(PIPELINED)('answers %j as uvicorn does, answer by answer', async (bytes) => {
    const [real, mocked] = await Promise.all([sendRawBytes(fastapi.url, bytes), sendRawBytes(mock.url, bytes)])
    expect(answersIn(real).length, real).toBeGreaterThan(0)
    expect(answersIn(mocked)).toEqual(answersIn(real))
  })
})
