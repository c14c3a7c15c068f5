/**
 * Typed overrides in Node (`mock.override`): answered after authentication and validation, byte for byte
 * as FastAPI writes them, and undone by `resetHandlers()`.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import {
  createMockServer,
  InvalidOverrideError,
  type MockServer,
  type OperationOverride,
  type OverrideRequest,
} from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
const tokens = () => mock.fixtures.tokens
const headersOf = (headers: Headers) => [...headers]

beforeAll(async () => {
  mock = await createMockServer({ seed: 11, personasPerTeam: 5 })
  api = client(mock)
})
afterEach(() => mock.resetHandlers())
afterAll(() => mock.close())

it('answers a body equal to the real answer with the same bytes and headers', async () => {
  const paths = ['/v1/personas/?limit=3', `/v1/policies/${mock.fixtures.policies[0]!.id}/rules?limit=2`]
  for (const path of paths) {
    const real = await api.get(path, tokens().team_reader)
    mock.override(path.startsWith('/v1/personas') ? 'list_personas' : 'list_policy_rules', {
      status: 200,
      body: real.body,
    })
    const overridden = await api.get(path, tokens().team_reader)
    expect(overridden.text, path).toBe(real.text)
    expect(headersOf(overridden.headers), path).toEqual(headersOf(real.headers))
    mock.resetHandlers()
  }
})

it('writes the body through the response model: its field order, floats as floats, defaults filled', async () => {
  const real = await api.get(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules?limit=1`, tokens().team_reader)
  const rule = real.body.results[0]
  const withoutDefault: Record<string, unknown> = Object.fromEntries(Object.entries(rule).reverse())
  withoutDefault.provenance = { ...rule.provenance, confidence_score: 1 }
  delete withoutDefault.reviewed_by
  mock.override('list_policy_rules', { body: { total: 1, results: [withoutDefault as typeof rule] } })
  const overridden = await api.get(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules`, tokens().team_reader)
  expect(Object.keys(overridden.body.results[0])).toEqual(Object.keys(rule))
  expect(overridden.text).toContain('"confidence_score":1.0')
  expect(overridden.body.results[0].reviewed_by, 'the default of a field left out').toBeNull()
  expect(overridden.text.startsWith('{"results":[')).toBe(true)
})

it('runs after authentication and validation: the real refusals still come first', async () => {
  mock.override('list_personas', { body: { results: [], total: 0 } })
  expect((await api.get('/v1/personas/')).status).toBe(401)
  expect((await api.get('/v1/personas/', tokens().no_permissions)).status).toBe(403)
  expect((await api.get('/v1/personas/?limit=0', tokens().team_reader)).status).toBe(422)
  const answered = await api.get('/v1/personas/', tokens().team_reader)
  expect(answered.text).toBe('{"results":[],"total":0}')
})

it('gives a function the parsed query, path, body and claims', async () => {
  const seen: Array<Pick<OverrideRequest<'list_personas'>, 'query' | 'claims'>> = []
  mock.override('list_personas', (req) => {
    seen.push({ query: req.query, claims: req.claims })
    return { body: { results: [], total: req.query.limit * 100 + req.world.teams.count() } }
  })
  const answered = await api.get('/v1/personas/?limit=7&intents=adversarial&is_preset=yes', tokens().team_reader)
  expect(answered.body).toEqual({ results: [], total: 703 })
  expect(seen[0]!.query).toEqual({
    team_id: null,
    intents: ['adversarial'],
    is_preset: true,
    search: null,
    limit: 7,
    offset: 0,
  })
  expect(seen[0]!.claims).toMatchObject({
    team_id: mock.fixtures.teams[0]!.id,
    permissions: ['persona:read', 'policy:read'],
  })

  let body: unknown
  let params: unknown
  mock.override('bulk_add_values', (req) => {
    ;({ body, params } = req)
    return { status: 201, body: [] }
  })
  const dimension = mock.fixtures.dimensions[0]!.id
  const added = await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    '{"values":[{"value":"x","metadata":{"weight":1.5}}]}',
    tokens().super_admin,
  )
  expect(added.status).toBe(201)
  expect(params).toEqual({ dimension_id: dimension })
  expect(body).toEqual({ values: [{ value: 'x', display_name: null, metadata: { weight: 1.5 }, sort_order: null }] })
})

it('answers the error shapes with FastAPI’s exact bodies and headers', async () => {
  const policy = mock.fixtures.policies[0]!.id
  const rules = `/v1/policies/${policy}/rules`
  const cases: Array<[OperationOverride<'list_policy_rules'>, number, string, string | null]> = [
    [{ error: 'not_authenticated' }, 401, '{"detail":"Not authenticated"}', 'Bearer'],
    [{ error: 'invalid_token' }, 401, '{"detail":"Could not validate credentials"}', 'Bearer'],
    [{ error: 'forbidden' }, 403, '{"detail":"Missing permission: policy:read"}', null],
    [{ error: 'not_found' }, 404, '{"detail":"Policy not found"}', null],
    [{ error: 'not_found', detail: 'Gone' }, 404, '{"detail":"Gone"}', null],
    [
      { error: 'validation', detail: [{ type: 'missing', loc: ['query', 'x'], msg: 'Field required', input: null }] },
      422,
      '{"detail":[{"type":"missing","loc":["query","x"],"msg":"Field required","input":null}]}',
      null,
    ],
    [
      { status: 409, body: { detail: 'Conflict' }, headers: { 'retry-after': '5' } },
      409,
      '{"detail":"Conflict"}',
      null,
    ],
  ]
  for (const [override, status, text, challenge] of cases) {
    mock.override('list_policy_rules', override)
    const answered = await api.get(rules, tokens().team_reader)
    expect({ status: answered.status, text: answered.text }, JSON.stringify(override)).toEqual({ status, text })
    expect(answered.headers.get('www-authenticate')).toBe(challenge)
    expect(answered.headers.get('content-type')).toBe('application/json')
    expect(answered.headers.get('content-length')).toBe(String(text.length))
  }
  expect((await api.get(rules, tokens().team_reader)).headers.get('retry-after')).toBe('5')
  // The real 404 of an unknown policy, for comparison: the same bytes.
  mock.resetHandlers()
  const real = await api.get(`/v1/policies/${mock.fixtures.teams[0]!.id}/rules`, tokens().team_reader)
  mock.override('list_policy_rules', { error: 'not_found' })
  const overridden = await api.get(rules, tokens().team_reader)
  expect(overridden.text).toBe(real.text)
  expect(headersOf(overridden.headers)).toEqual(headersOf(real.headers))

  mock.override('list_personas', { error: 'server_error' })
  const failed = await api.get('/v1/personas/', tokens().team_reader)
  expect([failed.status, failed.text, failed.headers.get('content-type')]).toEqual([
    500,
    'Internal Server Error',
    'text/plain; charset=utf-8',
  ])
})

it('answers a 422 given only the fields FastAPI declares (pydantic 1 servers send no `input`)', async () => {
  const entry = { loc: ['query', 'limit'], msg: 'ensure this value is greater than 0', type: 'value_error' }
  const overrides: OperationOverride<'list_personas'>[] = [
    { error: 'validation', detail: [entry] },
    { status: 422, body: { detail: [entry] } },
  ]
  for (const override of overrides) {
    mock.override('list_personas', override)
    const answered = await api.get('/v1/personas/', tokens().team_reader)
    // Written in the order of the mock's other 422 entries.
    expect([answered.status, answered.text]).toEqual([
      422,
      '{"detail":[{"type":"value_error","loc":["query","limit"],"msg":"ensure this value is greater than 0"}]}',
    ])
  }
})

it('refuses an override the operation cannot answer, naming the problem', () => {
  const bad: Array<[string, unknown, string]> = [
    ['list_personas', { status: 200, body: { results: 'none', total: 0 } }, 'body.results:'],
    [
      'list_personas',
      { status: 201, body: { results: [], total: 0 } },
      'status: 201 is not an answer of list_personas',
    ],
    ['list_personas', { status: 404, body: { message: 'x' } }, 'body.detail:'],
    ['list_personas', { error: 'gone' }, 'error:'],
    ['list_personas', { body: { results: [], total: 0 }, extra: 1 }, 'Unrecognized key'],
    ['list_personas', { status: 200 }, 'body: give the body'],
    ['delete_personas', { error: 'not_found' }, 'no such operation; known: list_personas'],
    ['list_personas', { body: { results: [], total: 0 }, headers: { 'x-a': 'a\r\nb' } }, 'visible ASCII and Latin-1'],
    ['list_personas', { body: { results: [], total: 0 }, headers: { 'x-a': 'a\u007fb' } }, 'visible ASCII and Latin-1'],
    [
      'list_personas',
      { body: { results: [], total: 0 }, headers: { 'x-a': '\u{1f600}' } },
      'visible ASCII and Latin-1',
    ],
    ['list_personas', { body: { results: [], total: 0 }, headers: { 'x a': '1' } }, 'not a header name'],
    ['list_personas', { body: { results: [], total: 0 }, headers: { 'Transfer-Encoding': 'chunked' } }, 'itself'],
  ]
  for (const [operation, override, problem] of bad) {
    const set = () => mock.override(operation as 'list_personas', override as never)
    expect(set, JSON.stringify(override)).toThrow(InvalidOverrideError)
    expect(set, JSON.stringify(override)).toThrow(problem)
  }
})

it('answers 500, as FastAPI’s response validation does, when a function returns a body the model refuses', async () => {
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    mock.override('list_personas', () => ({ body: { results: [{ id: 'not a persona' }], total: 1 } }) as never)
    const answered = await api.get('/v1/personas/', tokens().team_reader)
    expect([answered.status, answered.text]).toEqual([500, 'Internal Server Error'])
    expect(String(errors.flat().join(' '))).toContain('Invalid override of list_personas')
  } finally {
    console.error = original
  }
})

it('is undone by resetHandlers(), and kept by a reset of the world', async () => {
  mock.override('list_personas', { error: 'forbidden' })
  await mock.reset()
  expect((await api.get('/v1/personas/', tokens().team_reader)).status).toBe(403)
  mock.resetHandlers()
  expect((await api.get('/v1/personas/', tokens().team_reader)).status).toBe(200)
})

it('answers the bulk add with the profile’s status unless one is given', async () => {
  const dimension = mock.fixtures.dimensions[0]!.id
  const path = `/v1/demographics/${dimension}/values/bulk`
  const real = await api.post(path, { values: [{ value: 'kept' }] }, tokens().super_admin)
  mock.override('bulk_add_values', { body: real.body })
  const overridden = await api.post(path, { values: [{ value: 'kept' }] }, tokens().super_admin)
  expect([overridden.status, overridden.text]).toEqual([201, real.text])
  mock.override('bulk_add_values', { status: 200, body: [] })
  expect((await api.post(path, { values: [{ value: 'y' }] }, tokens().super_admin)).status).toBe(200)
})
