import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
let reader: string
let bulkPath: string

beforeAll(async () => {
  mock = await createMockServer({ seed: 4 })
  api = client(mock)
  reader = mock.fixtures.tokens.team_reader
  bulkPath = `/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`
})
afterAll(() => mock.close())

const headersOf = (res: { headers: Headers }, ...names: string[]) => names.map((name) => res.headers.get(name))

it('redirects to the slash twin with 307 and an absolute location that keeps the query', async () => {
  const res = await api.get('/v1/personas?limit=5&intents=a%20b')
  expect([res.status, res.text]).toEqual([307, ''])
  expect(headersOf(res, 'location', 'content-length')).toEqual([
    'http://localhost/v1/personas/?limit=5&intents=a%20b',
    '0',
  ])
  const plain = await api.get('/v1/personas')
  expect(plain.headers.get('location')).toBe('http://localhost/v1/personas/')
})

it('redirects before authenticating, for any method, both ways', async () => {
  const post = await api.post(`${bulkPath}/`, { values: [] })
  expect([post.status, post.headers.get('location')]).toEqual([307, `http://localhost${bulkPath}`])
  const rules = await api.get(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules///?limit=2`)
  expect([rules.status, rules.headers.get('location')]).toEqual([
    307,
    `http://localhost/v1/policies/${mock.fixtures.policies[0]!.id}/rules?limit=2`,
  ])
  const wrongMethod = await api.send('DELETE', '/v1/personas')
  expect(wrongMethod.status, 'a path-only match of the twin redirects too').toBe(307)
})

it('keeps percent escapes and quotes the decoded path in the location', async () => {
  const res = await api.get('/v1/pers%6Fnas?search=%C3%A9t%C3%A9+x')
  expect(res.headers.get('location')).toBe('http://localhost/v1/personas/?search=%C3%A9t%C3%A9+x')
})

it('matches paths decoded and case-sensitively, as Starlette does', async () => {
  expect((await api.get('/v1/person%61s/', reader)).status).toBe(200)
  for (const path of [
    '/V1/personas/',
    '/v1/Personas/',
    '/v1/personas//',
    '/v1/policies/a%2Fb/rules',
    '//v1/personas/',
  ]) {
    const res = await api.get(path, reader)
    expect([res.status, res.text], path).toEqual([404, '{"detail":"Not Found"}'])
  }
})

it('answers unknown paths with 404 Not Found', async () => {
  for (const path of ['/v1/nope', '/', '/v1', '/docs/../v1/x', '/v2/personas/']) {
    const res = await api.get(path)
    expect([res.status, res.text, res.headers.get('content-length')], path).toEqual([
      404,
      '{"detail":"Not Found"}',
      '22',
    ])
  }
})

it('answers another method with 405 and the route’s allow header, HEAD and OPTIONS included', async () => {
  for (const [method, path, allow] of [
    ['POST', '/v1/personas/', 'GET'],
    ['DELETE', '/v1/personas/', 'GET'],
    ['PUT', bulkPath, 'POST'],
    ['GET', bulkPath, 'POST'],
    ['OPTIONS', '/v1/personas/', 'GET'],
    ['PATCH', `/v1/policies/${mock.fixtures.policies[0]!.id}/rules`, 'GET'],
  ] as const) {
    const res = await api.send(method, path, reader)
    expect([res.status, res.text, res.headers.get('allow')], `${method} ${path}`).toEqual([
      405,
      '{"detail":"Method Not Allowed"}',
      allow,
    ])
  }
  const head = await fetch(mock.url('/v1/personas/'), { method: 'HEAD' })
  expect([head.status, head.headers.get('allow'), head.headers.get('content-length')]).toEqual([405, 'GET', '31'])
})

it('routes before validating path parameters', async () => {
  const res = await api.post(
    '/v1/demographics/not-a-uuid/values/bulk',
    { values: [] },
    mock.fixtures.tokens.super_admin,
  )
  expect(res.body.detail[0].loc).toEqual(['path', 'dimension_id'])
})
