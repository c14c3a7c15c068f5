import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Ajv } from 'ajv'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>
const fixtures = () => running.sessions.primary.fixtures
const bulkPath = () => `/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`

beforeAll(async () => {
  running = await startTestServer({ seed: 31, personasPerTeam: 4 })
  call = http(running)
})
beforeEach(async () => {
  await call('/__mock/reset', { method: 'POST' })
  await call('/__mock/requests', { method: 'DELETE' })
})
afterAll(() => running.close())

/** The HAR 1.2 schema of the `har-schema` package, every part registered, compiled with ajv for draft-06. */
function harValidator() {
  const require = createRequire(import.meta.url)
  const folder = join(dirname(require.resolve('har-schema/package.json')), 'lib')
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false })
  ajv.addMetaSchema(JSON.parse(readFileSync(require.resolve('ajv/dist/refs/json-schema-draft-06.json'), 'utf8')))
  const parts = ['afterRequest', 'beforeRequest', 'browser', 'cache', 'content', 'cookie', 'creator', 'entry']
  parts.push('har', 'header', 'log', 'page', 'pageTimings', 'postData', 'query', 'request', 'response', 'timings')
  for (const part of parts) ajv.addSchema(JSON.parse(readFileSync(join(folder, `${part}.json`), 'utf8')))
  return ajv.getSchema('har.json#')!
}

it('keeps request headers and bodies, with credentials redacted', async () => {
  const raw = '{"values":[{"value":"kept body"}]}'
  const token = fixtures().tokens.super_admin
  const added = await call(`${bulkPath()}?trace=1`, {
    method: 'POST',
    token,
    body: raw,
    headers: {
      'content-type': 'application/json',
      cookie: 'theme=dark; sid=s3cret',
      'x-mock-control-token': 'control-secret',
      'x-trace': 'abc',
    },
  })
  expect(added.status).toBe(201)
  await call('/v1/personas/', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })
  await call('/v1/personas/', { headers: { authorization: 'garbage-without-scheme' } })
  const listed = await call('/__mock/requests')
  expect(listed.text, 'no secret is kept').not.toMatch(
    new RegExp(`${token}|s3cret|control-secret|dXNlcjpwYXNz|garbage`),
  )
  const [post, basic, bare] = listed.json.requests
  expect(post).toMatchObject({
    method: 'POST',
    path: bulkPath(),
    query: 'trace=1',
    status: 201,
    origin: running.url,
    body: raw,
    body_bytes: raw.length,
    body_truncated: false,
    response_bytes: added.text.length,
  })
  expect(post.headers).toMatchObject({
    authorization: 'Bearer <redacted>',
    cookie: 'theme=<redacted>; sid=<redacted>',
    'x-mock-control-token': '<redacted>',
    'x-trace': 'abc',
    'content-type': 'application/json',
  })
  expect(post.response_headers).toMatchObject({
    'content-type': 'application/json',
    'content-length': String(added.text.length),
  })
  expect([basic.headers.authorization, basic.body, basic.body_bytes]).toEqual(['Basic <redacted>', null, 0])
  expect(bare.headers.authorization).toBe('<redacted>')
})

it("keeps the mock_session cookie's value, which names a session and is no secret", async () => {
  await call('/v1/personas/', { headers: { cookie: 'mock_session=journal-worker; other=x' } })
  const { json } = await call('/__mock/requests', { headers: { 'x-mock-session': 'journal-worker' } })
  expect(json.requests[0].headers.cookie).toBe('mock_session=journal-worker; other=<redacted>')
})

it('cuts a body past 64 KiB, says so, and never splits a character', async () => {
  const prefix = '{"values":[{"value":"'
  // An odd number of ASCII bytes before two-byte characters: the 65,536th byte is half of one.
  const padding = prefix.length % 2 === 0 ? 'a' : ''
  const raw = `${prefix}${padding}${'é'.repeat(40_000)}"}]}`
  const bytes = Buffer.byteLength(raw)
  const res = await call(bulkPath(), {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    body: raw,
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status, 'a value too long').toBe(422)
  const [entry] = (await call('/__mock/requests')).json.requests
  expect([entry.body_bytes, entry.body_truncated]).toEqual([bytes, true])
  expect(Buffer.byteLength(entry.body), 'the last whole character before the cut').toBe(64 * 1024 - 1)
  expect(raw.startsWith(entry.body)).toBe(true)
  expect(entry.body).not.toContain('\uFFFD')
})

it('drops the oldest entries once the kept bodies pass its memory bound', async () => {
  const big = JSON.stringify({ values: [{ value: 'x'.repeat(64 * 1024) }] })
  for (let i = 0; i < 70; i++) {
    await call(bulkPath(), {
      method: 'POST',
      token: fixtures().tokens.super_admin,
      body: big,
      headers: { 'content-type': 'application/json' },
    })
  }
  const { json } = await call('/__mock/requests')
  expect(json.requests.length, '4 MiB of 64 KiB bodies').toBeLessThanOrEqual(64)
  expect(json.requests.length).toBeGreaterThan(50)
  expect(json.requests.every((entry: { body_truncated: boolean }) => entry.body_truncated)).toBe(true)
  const seqs = json.requests.map((entry: { seq: number }) => entry.seq)
  expect(seqs.at(-1) - seqs[0] + 1, 'the newest kept, in order, none skipped').toBe(seqs.length)
})

it('exports the journal as HAR 1.2 that the HAR schema accepts', async () => {
  const token = fixtures().tokens.super_admin
  const raw = '{"values":[{"value":"har value"}]}'
  const added = await call(bulkPath(), {
    method: 'POST',
    token,
    body: raw,
    headers: { 'content-type': 'application/json' },
  })
  await call('/v1/personas/?limit=2&intents=adversarial&intents=benign', { token: fixtures().tokens.team_reader })
  await call('/v1/personas', { token: fixtures().tokens.team_reader }) // 307 to the slash twin
  await call('/__mock/faults', { method: 'PUT', json: { drop: { rate: 1 } } })
  await fetch(`${running.url}/v1/personas/`).catch(() => undefined) // a dropped connection: no answer
  await call('/__mock/faults', { method: 'PUT', json: {} })

  const har = await call('/__mock/requests.har')
  expect(har.status).toBe(200)
  expect(har.headers.get('content-type')).toBe('application/json')
  expect(har.headers.get('content-disposition')).toBe('attachment; filename="requests.har"')
  const validate = harValidator()
  expect(validate(har.json), JSON.stringify(validate.errors)).toBe(true)
  expect(har.text).not.toContain(token)

  const { log } = har.json
  const version = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version
  expect([log.version, log.creator]).toEqual(['1.2', { name: 'agent-console-mock', version }])
  expect(
    log.entries.map((e: { request: { method: string }; response: { status: number } }) => [
      e.request.method,
      e.response.status,
    ]),
  ).toEqual([
    ['POST', 201],
    ['GET', 200],
    ['GET', 307],
    ['GET', 0],
  ])
  const [post, list, redirect, dropped] = log.entries
  expect(post.request).toMatchObject({
    url: `${running.url}${bulkPath()}`,
    httpVersion: 'HTTP/1.1',
    postData: { mimeType: 'application/json', text: raw },
    bodySize: raw.length,
    headersSize: -1,
  })
  expect(post.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer <redacted>' })
  expect(post.response).toMatchObject({
    status: 201,
    statusText: 'Created',
    content: { size: added.text.length, mimeType: 'application/json' },
    bodySize: added.text.length,
  })
  expect(Date.parse(post.startedDateTime)).not.toBeNaN()
  expect(post.timings.wait).toBe(post.time)
  expect(list.request.queryString).toEqual([
    { name: 'limit', value: '2' },
    { name: 'intents', value: 'adversarial' },
    { name: 'intents', value: 'benign' },
  ])
  expect(list.request.postData).toBeUndefined()
  expect(redirect.response.redirectURL).toBe(`${running.url}/v1/personas/`)
  expect([dropped.response.status, dropped.response.statusText]).toEqual([0, ''])

  const filtered = await call('/__mock/requests.har?method=post')
  expect(filtered.json.log.entries).toHaveLength(1)
  expect((await call('/__mock/requests.har?limit=0')).status, 'the filters are checked as for /requests').toBe(400)
  const head = await call('/__mock/requests.har', { method: 'HEAD' })
  expect([head.status, head.text]).toEqual([200, ''])
})

it('exports an empty journal as a HAR without entries, per session', async () => {
  await call('/v1/personas/')
  const har = await call('/__mock/requests.har', { headers: { 'x-mock-session': 'har-empty' } })
  expect(har.json.log.entries).toEqual([])
  expect(harValidator()(har.json)).toBe(true)
})
