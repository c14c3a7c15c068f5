import { afterEach, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer | undefined
afterEach(() => {
  mock?.close()
  mock = undefined
})

const start = async (profile: Parameters<typeof createMockServer>[0] = {}) => {
  mock = await createMockServer({ seed: 5, ...profile })
  return { mock, api: client(mock), tokens: mock.fixtures.tokens }
}

it('answers a missing token with 401 and a Bearer challenge by default', async () => {
  const { api } = await start()
  const res = await api.get('/v1/personas/')
  expect([res.status, res.text, res.headers.get('www-authenticate')]).toEqual([
    401,
    '{"detail":"Not authenticated"}',
    'Bearer',
  ])
})

it('answers a missing token with 403 and no challenge when missingCredentialsStatus is 403', async () => {
  const { api } = await start({ profile: { missingCredentialsStatus: 403 } })
  const missing = await api.get('/v1/personas/')
  expect([missing.status, missing.text, missing.headers.get('www-authenticate')]).toEqual([
    403,
    '{"detail":"Not authenticated"}',
    null,
  ])
  const basic = await api.get('/v1/personas/', undefined, { authorization: 'Basic abc' })
  expect([basic.status, basic.text]).toEqual([403, '{"detail":"Invalid authentication credentials"}'])
  const bad = await api.get('/v1/personas/', 'not-a-jwt')
  expect([bad.status, bad.text], 'a bad token is still 401').toEqual([
    401,
    '{"detail":"Could not validate credentials"}',
  ])
})

it('rejects duplicates with 409 and adds nothing when bulkDuplicates is reject', async () => {
  const { mock, api, tokens } = await start({ profile: { bulkDuplicates: 'reject' } })
  const dimension = mock.fixtures.dimensions[0]!.id
  const existing = mock.world.values.all().find((v) => v.dimension_id === dimension)!.value
  const count = mock.world.values.all().length
  const dup = await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    { values: [{ value: 'zz' }, { value: existing }, { value: 'zz' }, { value: existing }] },
    tokens.super_admin,
  )
  expect([dup.status, dup.text]).toEqual([409, `{"detail":"Duplicate values: ${existing}, zz"}`])
  expect(mock.world.values.all()).toHaveLength(count)
  const fine = await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    { values: [{ value: 'zz' }] },
    tokens.super_admin,
  )
  expect(fine.status).toBe(201)
})

it('stores duplicates again, each a record of its own, when bulkDuplicates is store', async () => {
  const { mock, api, tokens } = await start({ profile: { bulkDuplicates: 'store' } })
  const dimension = mock.fixtures.dimensions[0]!.id
  const stored = mock.world.values.all().filter((v) => v.dimension_id === dimension)
  const existing = stored[0]!.value
  const largest = Math.max(...stored.map((v) => Number(v.sort_order)))
  const res = await api.post(
    `/v1/demographics/${dimension}/values/bulk`,
    { values: [{ value: existing }, { value: 'zz' }, { value: 'zz' }] },
    tokens.super_admin,
  )
  const added = res.json as Array<{ id: string; value: string; sort_order: number }>
  expect([res.status, added.map((v) => v.value)]).toEqual([201, [existing, 'zz', 'zz']])
  expect(
    added.map((v) => v.sort_order),
    'sort orders go on as for any value',
  ).toEqual([1, 2, 3].map((n) => largest + n))
  expect(new Set(added.map((v) => v.id)).size).toBe(3)
  expect(mock.world.values.all().filter((v) => v.dimension_id === dimension)).toHaveLength(stored.length + 3)
})

it('answers a bulk add with 200 when bulkAddStatus is 200', async () => {
  const { mock, api, tokens } = await start({ profile: { bulkAddStatus: 200 } })
  const res = await api.post(
    `/v1/demographics/${mock.fixtures.dimensions[1]!.id}/values/bulk`,
    { values: [{ value: 'x' }] },
    tokens.super_admin,
  )
  expect(res.status).toBe(200)
})

it('writes every timestamp in milliseconds when timestampUnit is ms', async () => {
  const seconds = await start()
  const inSeconds = await seconds.api.get(
    `/v1/policies/${seconds.mock.fixtures.policies[0]!.id}/rules?limit=1000`,
    seconds.tokens.team_reader,
  )
  mock!.close()
  const millis = await start({ profile: { timestampUnit: 'ms' } })
  const inMillis = await millis.api.get(
    `/v1/policies/${millis.mock.fixtures.policies[0]!.id}/rules?limit=1000`,
    millis.tokens.team_reader,
  )
  const scaled = inSeconds.body.results.map((rule: Record<string, unknown>) => ({
    ...rule,
    created_at: (rule.created_at as number) * 1000,
    updated_at: (rule.updated_at as number) * 1000,
    reviewed_at: rule.reviewed_at === null ? null : (rule.reviewed_at as number) * 1000,
  }))
  expect(inMillis.body.results).toEqual(scaled)
  const personas = await millis.api.get('/v1/personas/?limit=1', millis.tokens.team_reader)
  expect(personas.body.results[0].created_at).toBeGreaterThan(1e12)
})

it('uses the pydantic 2.13 UUID message when pydantic is 2.13', async () => {
  const { api, tokens } = await start({ profile: { pydantic: '2.13' } })
  const res = await api.get('/v1/personas/?team_id=not-a-uuid', tokens.team_reader)
  expect(res.text).toBe(
    '{"detail":[{"type":"uuid_parsing","loc":["query","team_id"],"msg":"Input should be a valid UUID, invalid character: found `n` at 1","input":"not-a-uuid","ctx":{"error":"invalid character: found `n` at 1"}}]}',
  )
})

it('names and bounds the rules paging parameters as rulesPaging says', async () => {
  const { mock, api, tokens } = await start({
    profile: { rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 25 } },
  })
  const path = `/v1/policies/${mock.fixtures.policies[0]!.id}/rules`
  const first = await api.get(path, tokens.team_reader)
  expect(first.body.results).toHaveLength(25)
  const page = await api.get(`${path}?page_size=5&skip=5&limit=1&offset=0`, tokens.team_reader)
  expect(page.body.results.map((r: { rule_id: string }) => r.rule_id)).toEqual(
    first.body.results.slice(5, 10).map((r: { rule_id: string }) => r.rule_id),
  )
  const invalid = await api.get(`${path}?page_size=0&skip=-1`, tokens.team_reader)
  expect(invalid.text).toBe(
    '{"detail":[{"type":"greater_than_equal","loc":["query","page_size"],"msg":"Input should be greater than or equal to 1","input":"0","ctx":{"ge":1}},{"type":"greater_than_equal","loc":["query","skip"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}}]}',
  )
})

it('refuses an invalid profile with a message naming the setting', async () => {
  await expect(createMockServer({ profile: { timestampUnit: 'minutes' as 's' } })).rejects.toThrow(/timestampUnit/)
  await expect(createMockServer({ profile: { rulesPaging: { limit: 'x', offset: 'x' } } })).rejects.toThrow(
    /different names/,
  )
})

it('refuses a second mock server in the same process while one is listening', async () => {
  await start()
  await expect(createMockServer()).rejects.toThrow(/close\(\)/)
})
