/**
 * The proxy in front of a hand-written server: a gzip answer, repeated headers, a HEAD and a request body all
 * pass as they came, the judge reads the decoded JSON, and beyond loopback /__mock/* needs the control token.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from 'agent-console-mock/server'
import { type RecordingTarget, startRecordingTarget } from '../support/recording-target.js'

const TEAM = '0b0b0b0b-0000-4000-8000-000000000001'
/** Answers a page of personas that claims a total of 1 but holds none: `paging.page-size`. */
let target: RecordingTarget
let proxy: RunningProxy

beforeAll(async () => {
  target = await startRecordingTarget({
    status: 200,
    statusText: 'Fine',
    json: JSON.stringify({ results: [], total: 1 }),
    headers: [
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ],
  })
  proxy = await startProxy({ target: target.url, port: 0 })
})
afterAll(async () => {
  await proxy?.close()
  target?.close()
})

it('hands a compressed answer on as it came, and judges its decoded JSON', async () => {
  const answer = await fetch(`${proxy.url}/v1/personas/?team_id=${TEAM}`, { headers: { 'accept-encoding': 'gzip' } })
  // fetch decodes the body itself: the bytes that came are the target's gzip, their content-length says so.
  expect(answer.headers.get('content-encoding')).toBe('gzip')
  expect(answer.headers.get('content-length')).toBe(String(target.body.byteLength))
  expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  expect(answer.statusText).toBe('Fine')
  expect(await answer.json()).toEqual({ results: [], total: 1 })
  expect(answer.headers.get('x-contract-violations')).toBe('paging.page-size')
  expect(target.seen.headers?.['accept-encoding'], 'sent on as the client wrote it').toBe('gzip')
  const bytes = await new Promise<Buffer>((resolve, reject) =>
    request(`${proxy.url}/v1/personas/`, (raw) => {
      const chunks: Buffer[] = []
      raw.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks)))
    })
      .on('error', reject)
      .end(),
  )
  expect(bytes.equals(target.body), 'the gzip bytes themselves').toBe(true)
  expect(target.seen.headers?.host, "the target's own name").toBe(new URL(target.url).host)
})

it('sends a body and the end-to-end headers on, and no hop-by-hop ones', async () => {
  const body = JSON.stringify({ values: [{ value: 'x' }] })
  // fetch refuses a Connection header: node:http sends it as a client on the wire would.
  await new Promise<void>((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      'x-trace': 'abc',
      connection: 'keep-alive, x-hop',
      'x-hop': '1',
    }
    request(`${proxy.url}/v1/demographics/${TEAM}/values/bulk`, { method: 'POST', headers }, (answer) => {
      answer.resume().on('end', resolve)
    })
      .on('error', reject)
      .end(body)
  })
  expect(target.seen).toMatchObject({ method: 'POST', body })
  expect(target.seen.headers).toMatchObject({ 'x-trace': 'abc', 'content-length': String(body.length) })
  expect(target.seen.headers?.['x-hop'], 'named by Connection: hop-by-hop').toBeUndefined()
})

it('answers a HEAD with the headers and no body', async () => {
  const answer = await fetch(`${proxy.url}/v1/personas/`, { method: 'HEAD' })
  expect([answer.status, target.seen.method, answer.headers.get('content-length')]).toEqual([
    200,
    'HEAD',
    String(target.body.byteLength),
  ])
})

it('refuses a request body past its limit with 413, without sending it on', async () => {
  const small = await startProxy({
    target: target.url,
    port: 0,
    maxBodyBytes: 10,
  })
  try {
    target.forget()
    const answer = await fetch(`${small.url}/v1/personas/`, { method: 'POST', body: '{"a": 12345}' })
    expect([answer.status, await answer.json(), target.seen.method]).toEqual([
      413,
      { detail: 'Request body too large' },
      undefined,
    ])
  } finally {
    await small.close()
  }
})

it('demands the control token on /__mock/* when bound beyond loopback', async () => {
  const exposed = await startProxy({ target: 'http://127.0.0.1:9', host: '0.0.0.0', port: 0 })
  try {
    expect(exposed.controlToken).toMatch(/^[0-9a-f-]{36}$/)
    const port = new URL(exposed.url).port
    expect((await fetch(`http://127.0.0.1:${port}/__mock/violations`)).status).toBe(401)
    const headers = { 'x-mock-control-token': exposed.controlToken! }
    expect((await fetch(`http://127.0.0.1:${port}/__mock/violations`, { headers })).status).toBe(200)
  } finally {
    await exposed.close()
  }
})
