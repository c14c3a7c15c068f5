import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { resolveProfile } from 'agent-console-mock'
import { openApiDocumentJson } from '../../fastapi/openapi/document.js'
import { client } from '../support/client.js'

/**
 * The `pydantic: '1'` profile reads bodies and writes /openapi.json as FastAPI 0.92 + pydantic 1.10 does.
 * Every expected body below is what the reference app of test/fastapi (Debian's FastAPI 0.92 / pydantic
 * 1.10.4) answered to the same request.
 */
let mock: MockServer
let api: ReturnType<typeof client>
let admin: string
const UNKNOWN = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'
const bulk = (dimension = UNKNOWN) => `/v1/demographics/${dimension}/values/bulk`

beforeAll(async () => {
  mock = await createMockServer({ seed: 3, profile: { pydantic: '1', missingCredentialsStatus: 403, intents: 'enum' } })
  api = client(mock)
  admin = mock.fixtures.tokens.super_admin
})
afterAll(() => mock.close())

const detail = (...errors: object[]) => JSON.stringify({ detail: errors })

it('refuses bodies of the wrong shape as pydantic 1 does', async () => {
  const cases: Array<[unknown, string]> = [
    [{ values: 'abc' }, detail({ loc: ['body', 'values'], msg: 'value is not a valid list', type: 'type_error.list' })],
    [
      { values: null },
      detail({ loc: ['body', 'values'], msg: 'none is not an allowed value', type: 'type_error.none.not_allowed' }),
    ],
    [[1], detail({ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' })],
    [
      { values: [{ value: 'x'.repeat(256) }, { value: [] }, {}, 3, { value: 'a', metadata: null }] },
      detail(
        {
          loc: ['body', 'values', 0, 'value'],
          msg: 'ensure this value has at most 255 characters',
          type: 'value_error.any_str.max_length',
          ctx: { limit_value: 255 },
        },
        { loc: ['body', 'values', 1, 'value'], msg: 'str type expected', type: 'type_error.str' },
        { loc: ['body', 'values', 2, 'value'], msg: 'field required', type: 'value_error.missing' },
        { loc: ['body', 'values', 3], msg: 'value is not a valid dict', type: 'type_error.dict' },
        {
          loc: ['body', 'values', 4, 'metadata'],
          msg: 'none is not an allowed value',
          type: 'type_error.none.not_allowed',
        },
      ),
    ],
    [
      { values: Array.from({ length: 1001 }, () => ({ value: 3 })) },
      detail({
        loc: ['body', 'values'],
        msg: 'ensure this value has at most 1000 items',
        type: 'value_error.list.max_items',
        ctx: { limit_value: 1000 },
      }),
    ],
  ]
  for (const [body, expected] of cases)
    expect((await api.post(bulk(), body, admin)).text, JSON.stringify(body).slice(0, 60)).toBe(expected)
})

it('answers a missing body with field required, invalid JSON with its JSONDecodeError, before auth', async () => {
  expect((await api.send('POST', bulk(), admin)).text).toBe(
    detail({ loc: ['body'], msg: 'field required', type: 'value_error.missing' }),
  )
  expect((await api.post(bulk(), 'null', admin)).text).toBe(
    detail({ loc: ['body'], msg: 'field required', type: 'value_error.missing' }),
  )
  expect((await api.post(bulk(), '{"values": [1,')).text).toBe(
    detail({
      loc: ['body', 14],
      msg: 'Expecting value: line 1 column 15 (char 14)',
      type: 'value_error.jsondecode',
      ctx: { msg: 'Expecting value', doc: '{"values": [1,', pos: 14, lineno: 1, colno: 15 },
    }),
  )
  const multiline = await api.post(bulk(), '{"v": "é",\n"w": }', admin)
  expect(multiline.text, 'positions count code points').toBe(
    detail({
      loc: ['body', 16],
      msg: 'Expecting value: line 2 column 6 (char 16)',
      type: 'value_error.jsondecode',
      ctx: { msg: 'Expecting value', doc: '{"v": "é",\n"w": }', pos: 16, lineno: 2, colno: 6 },
    }),
  )
})

it('coerces as pydantic 1 does: numbers and bools to str, floats truncated, pairs to a dict', async () => {
  const dimension = mock.fixtures.dimensions[0]!.id
  const res = await api.post(
    bulk(dimension),
    { values: [{ value: 5, display_name: true, sort_order: 1.9, metadata: [['a', 1]] }, { value: 1e16 }] },
    admin,
  )
  expect(res.status).toBe(201)
  expect(
    res.body.map(({ value, display_name, sort_order, value_metadata }: Record<string, unknown>) => [
      value,
      display_name,
      sort_order,
      value_metadata,
    ]),
  ).toEqual([
    ['5', 'True', 1, { a: 1 }],
    ['10000000000000000', '10000000000000000', expect.any(Number), {}],
  ])
})

it('refuses NaN in metadata once the request would succeed (FastAPI would store it and answer 500)', async () => {
  const body = '{"values": [{"value": "nan-check", "metadata": {"n": NaN}}]}'
  expect((await api.post(bulk(), body, admin)).status, 'an unknown dimension is still a 404').toBe(404)
  const res = await api.post(bulk(mock.fixtures.dimensions[0]!.id), body, admin)
  expect(res.text).toBe(
    detail({
      loc: ['body', 'values', 0, 'metadata', 'n'],
      msg: 'ensure this value is a finite number',
      type: 'value_error.number.not_finite_number',
    }),
  )
})

it('serves the OpenAPI 3.0.2 document of FastAPI 0.92', async () => {
  const parsed = openApiDocumentJson(resolveProfile({ pydantic: '1' })) as any
  expect(parsed.paths['/v1/personas/'].get.parameters[4].schema, 'readers get plain numbers').toMatchObject({
    maximum: 100,
  })
  const text = (await api.get('/openapi.json')).text
  expect(
    text.startsWith('{"openapi":"3.0.2","info":{"title":"Agent Management Console API","version":"0.1.0"},"paths":'),
  ).toBe(true)
  expect(text).toContain(
    '{"required":false,"schema":{"title":"Limit","maximum":100.0,"minimum":1.0,"type":"integer","default":10},"name":"limit","in":"query"}',
  )
  expect(text).toContain(
    '{"required":false,"schema":{"type":"array","items":{"$ref":"#/components/schemas/Intent"}},"name":"intents","in":"query"}',
  )
  expect(text).toContain(
    '"knowledge_level":{"allOf":[{"$ref":"#/components/schemas/KnowledgeLevel"}],"default":"intermediate"}',
  )
  expect(text).toContain('"description":{"title":"Description","type":"string"}')
  expect(text).toContain(
    '"Intent":{"title":"Intent","enum":["benign","curious","adversarial","malicious"],"type":"string","description":"An enumeration."}',
  )
  expect(text).toContain(
    '"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/BulkAddValues"}}},"required":true}',
  )
})
