import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
let admin: string
let dimensionId: string
let path: string

beforeAll(async () => {
  mock = await createMockServer({ seed: 5 })
  api = client(mock)
  admin = mock.fixtures.tokens.super_admin
  dimensionId = mock.fixtures.dimensions[0]!.id
  path = `/v1/demographics/${dimensionId}/values/bulk`
})
beforeEach(() => mock.reset())
afterAll(() => mock.close())

type Value = {
  id: string
  dimension_id: string
  value: string
  display_name: string
  value_metadata: unknown
  sort_order: number
  created_at: number
}
const stored = () => (mock.world.values.all() as Value[]).filter((v) => v.dimension_id === dimensionId)
const largestSortOrder = () => Math.max(...stored().map((v) => Number(v.sort_order)))

it('adds values with their defaults and answers 201 with the created records', async () => {
  const before = largestSortOrder()
  const sentAt = Math.floor(Date.now() / 1000)
  const { status, body } = await api.post(
    path,
    { values: [{ value: 'teen' }, { value: 'senior', display_name: 'Senior', metadata: { band: 'old' } }] },
    admin,
  )
  const answeredAt = Math.floor(Date.now() / 1000)
  expect(status).toBe(201)
  expect(body).toHaveLength(2)
  expect(Object.keys(body[0])).toEqual([
    'id',
    'dimension_id',
    'value',
    'created_at',
    'display_name',
    'value_metadata',
    'sort_order',
  ])
  expect(body[0]).toMatchObject({
    dimension_id: dimensionId,
    value: 'teen',
    display_name: 'teen',
    value_metadata: {},
    sort_order: before + 1,
  })
  expect(body[1]).toMatchObject({
    value: 'senior',
    display_name: 'Senior',
    value_metadata: { band: 'old' },
    sort_order: before + 2,
  })
  expect(body[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  expect(Number.isInteger(body[0].created_at)).toBe(true)
  // The moment of the request, in whole seconds: between sending and the answer, however long that took.
  expect(body[0].created_at).toBeGreaterThanOrEqual(sentAt)
  expect(body[0].created_at).toBeLessThanOrEqual(answeredAt)
  expect(stored().map((v) => v.value)).toEqual(expect.arrayContaining(['teen', 'senior']))
})

it('numbers missing sort orders from the largest so far, item by item', async () => {
  const before = largestSortOrder()
  const { body } = await api.post(
    path,
    {
      values: [
        { value: 'a' },
        { value: 'b', sort_order: before + 50 },
        { value: 'c' },
        { value: 'd', sort_order: 0 },
        { value: 'e' },
      ],
    },
    admin,
  )
  expect(body.map((v: Value) => v.sort_order)).toEqual([before + 1, before + 50, before + 51, 0, before + 52])
})

it('starts an empty dimension at sort order 0', async () => {
  for (const value of stored()) mock.world.values.delete(value as never)
  const { body } = await api.post(path, { values: [{ value: 'first' }, { value: 'second' }] }, admin)
  expect(body.map((v: Value) => v.sort_order)).toEqual([0, 1])
})

it('skips values already in the dimension or repeated in the request', async () => {
  const existing = stored()[0]!.value
  const count = stored().length
  const { status, body } = await api.post(
    path,
    { values: [{ value: existing }, { value: 'new' }, { value: 'new', display_name: 'again' }, { value: 'NEW' }] },
    admin,
  )
  expect(status).toBe(201)
  expect(body.map((v: Value) => [v.value, v.display_name])).toEqual([
    ['new', 'new'],
    ['NEW', 'NEW'],
  ])
  expect(stored()).toHaveLength(count + 2)
})

it('answers an empty list with 201 and []', async () => {
  const { status, text } = await api.post(path, { values: [] }, admin)
  expect([status, text]).toEqual([201, '[]'])
})

it('adds nothing when any item is invalid', async () => {
  const count = stored().length
  const { status, body } = await api.post(
    path,
    { values: [{ value: 'fine' }, { value: '' }, { value: 'also fine', sort_order: 1.5 }] },
    admin,
  )
  expect(status).toBe(422)
  expect(body.detail.map((e: { loc: unknown[] }) => e.loc)).toEqual([
    ['body', 'values', 1, 'value'],
    ['body', 'values', 2, 'sort_order'],
  ])
  expect(stored()).toHaveLength(count)
})

it('answers 404 for an unknown dimension, after validating the request', async () => {
  const unknown = '/v1/demographics/00000000-0000-4000-8000-000000000000/values/bulk'
  const missing = await api.post(unknown, { values: [{ value: 'x' }] }, admin)
  expect([missing.status, missing.text]).toEqual([404, '{"detail":"Dimension not found"}'])
  const invalid = await api.post(unknown, { values: 'x' }, admin)
  expect(invalid.status).toBe(422)
})

it('requires a super admin, before validating the body', async () => {
  for (const token of [mock.fixtures.tokens.team_reader, mock.fixtures.tokens.no_permissions]) {
    const { status, text } = await api.post(path, { values: 'not a list' }, token)
    expect([status, text]).toEqual([403, '{"detail":"Super admin permission required"}'])
  }
})

it('keeps metadata as plain data: key order, numbers and keys like __proto__', async () => {
  const raw =
    '{"values":[{"value":"meta","metadata":{"b":1,"10":2.0,"__proto__":{"polluted":true},"constructor":"x","big":123456789012345678901234567890,"f":1e2}}]}'
  const { status, text } = await api.post(path, raw, admin)
  expect(status).toBe(201)
  expect(text).toContain(
    '"value_metadata":{"b":1,"10":2.0,"__proto__":{"polluted":true},"constructor":"x","big":123456789012345678901234567890,"f":100.0}',
  )
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

it('keeps a sort order past 2^53 exact and counts on from it', async () => {
  const { text } = await api.post(
    path,
    '{"values":[{"value":"huge","sort_order":"12345678901234567890"},{"value":"next"}]}',
    admin,
  )
  expect(text).toMatch(
    /"value":"huge".*"sort_order":12345678901234567890}.*"value":"next".*"sort_order":12345678901234567891}/,
  )
})

it('counts string lengths in code points, from 1 to 255', async () => {
  const ok = await api.post(path, { values: [{ value: '😀'.repeat(255) }] }, admin)
  expect(ok.status).toBe(201)
  const long = await api.post(path, { values: [{ value: 'x'.repeat(256) }] }, admin)
  expect(long.body.detail[0]).toMatchObject({ type: 'string_too_long', ctx: { max_length: 255 } })
})

it('refuses more than 1000 values in one request with too_long alone', async () => {
  const values = Array.from({ length: 1001 }, (_, i) => (i === 3 ? { value: 5 } : { value: `v${i}` }))
  const { status, body } = await api.post(path, { values }, admin)
  expect(status).toBe(422)
  expect(body.detail).toHaveLength(1)
  expect(body.detail[0]).toMatchObject({
    type: 'too_long',
    loc: ['body', 'values'],
    msg: 'List should have at most 1000 items after validation, not 1001',
    ctx: { field_type: 'List', max_length: 1000, actual_length: 1001 },
  })
  const thousand = await api.post(path, { values: values.slice(0, 1000).map((_, i) => ({ value: `ok${i}` })) }, admin)
  expect([thousand.status, thousand.body.length]).toEqual([201, 1000])
})

it('loses and duplicates nothing under concurrent bulk adds', async () => {
  const before = stored().length
  const batches = Array.from({ length: 30 }, (_, b) => ({
    values: Array.from({ length: 10 }, (_, i) => ({ value: `c${(b * 3 + i) % 40}` })),
  }))
  const answers = await Promise.all(batches.map((batch) => api.post(path, batch, admin)))
  expect(answers.every((a) => a.status === 201)).toBe(true)
  const created = answers.flatMap((a) => a.body.map((v: Value) => v.value))
  expect(new Set(created).size, 'each value is created once').toBe(created.length)
  expect(created.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `c${i}`).sort())
  const values = stored()
  expect(values).toHaveLength(before + 40)
  expect(new Set(values.map((v) => v.sort_order)).size, 'sort orders are unique').toBe(values.length)
})

it('answers a body over 1 MiB with 413 before authenticating, and adds nothing', async () => {
  const count = stored().length
  const big = JSON.stringify({ values: [{ value: 'x', metadata: { pad: 'p'.repeat(1024 * 1024) } }] })
  const refused = await api.post(path, big)
  expect([refused.status, refused.text]).toEqual([413, '{"detail":"Request body too large"}'])
  expect(stored()).toHaveLength(count)
  const atLimit = JSON.stringify({ values: [{ value: 'y', metadata: { pad: '' } }] })
  const padded = atLimit.replace('"pad":""', `"pad":"${'p'.repeat(1024 * 1024 - atLimit.length)}"`)
  expect(new TextEncoder().encode(padded).byteLength).toBe(1024 * 1024)
  expect((await api.post(path, padded, admin)).status, 'exactly 1 MiB is allowed').toBe(201)
})

it('refuses NaN and infinities anywhere in metadata with finite_number, echoed as strings', async () => {
  const { status, text } = await api.post(
    path,
    '{"values":[{"value":"n","metadata":{"a":NaN,"b":[1,-Infinity],"c":1e400}}]}',
    admin,
  )
  expect(status).toBe(422)
  expect(text).toBe(
    '{"detail":[' +
      '{"type":"finite_number","loc":["body","values",0,"metadata","a"],"msg":"Input should be a finite number","input":"NaN"},' +
      '{"type":"finite_number","loc":["body","values",0,"metadata","b",1],"msg":"Input should be a finite number","input":"-Infinity"},' +
      '{"type":"finite_number","loc":["body","values",0,"metadata","c"],"msg":"Input should be a finite number","input":"Infinity"}]}',
  )
})

it('answers 400 for JSON Python cannot parse: too deep, or an integer of more than 4300 digits', async () => {
  const parseError = [400, '{"detail":"There was an error parsing the body"}']
  const deep = await api.post(
    path,
    `{"values":[{"value":"d","metadata":{"x":${'['.repeat(1000)}${']'.repeat(1000)}}}]}`,
    admin,
  )
  expect([deep.status, deep.text]).toEqual(parseError)
  const huge = await api.post(path, `{"values":[{"value":"h","sort_order":${'9'.repeat(4301)}}]}`, admin)
  expect([huge.status, huge.text]).toEqual(parseError)
  const shallow = await api.post(
    path,
    `{"values":[{"value":"s","metadata":{"x":${'['.repeat(900)}${']'.repeat(900)}}}]}`,
    admin,
  )
  expect(shallow.status).toBe(201)
})

it('echoes undecodable bytes sent as text with replacement characters, never a 500', async () => {
  const bytes = new Uint8Array([0x7b, 0xff, 0x7d])
  const { status, text } = await api.post(path, bytes, admin, { 'content-type': 'text/plain' })
  expect([status, text]).toEqual([
    422,
    '{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"{\uFFFD}"}]}',
  ])
})
