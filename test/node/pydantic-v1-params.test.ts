import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

/**
 * The `pydantic: '1'` profile answers bad parameters as FastAPI 0.92 + pydantic 1.10 does. Every expected
 * body below is what the reference app of test/fastapi (Debian's FastAPI 0.92 / pydantic 1.10.4) answered
 * to the same request.
 */
let mock: MockServer
let api: ReturnType<typeof client>
let reader: string
const UNKNOWN = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'

beforeAll(async () => {
  mock = await createMockServer({ seed: 3, profile: { pydantic: '1', missingCredentialsStatus: 403, intents: 'enum' } })
  api = client(mock)
  reader = mock.fixtures.tokens.team_reader
})
afterAll(() => mock.close())

const detail = (...errors: object[]) => JSON.stringify({ detail: errors })
const notGe = (loc: unknown[], limit: number) => ({
  loc,
  msg: `ensure this value is greater than or equal to ${limit}`,
  type: 'value_error.number.not_ge',
  ctx: { limit_value: limit },
})

it('answers bad limits and offsets with pydantic 1 errors in signature order, ctx where it has one', async () => {
  const res = await api.get('/v1/personas/?offset=x&limit=101', reader)
  expect([res.status, res.headers.get('content-type'), res.text]).toEqual([
    422,
    'application/json',
    detail(
      {
        loc: ['query', 'limit'],
        msg: 'ensure this value is less than or equal to 100',
        type: 'value_error.number.not_le',
        ctx: { limit_value: 100 },
      },
      { loc: ['query', 'offset'], msg: 'value is not a valid integer', type: 'type_error.integer' },
    ),
  ])
  expect((await api.get('/v1/personas/?limit=0&offset=-1', reader)).text).toBe(
    detail(notGe(['query', 'limit'], 1), notGe(['query', 'offset'], 0)),
  )
})

it("reads ints as Python int() does: spaces, underscores and other scripts' digits pass, decimals do not", async () => {
  for (const limit of ['%205%20', '1_0', '%D9%A3', '%2B7'])
    expect((await api.get(`/v1/personas/?limit=${limit}`, reader)).status, limit).toBe(200)
  for (const limit of ['1.5', '1e2', '', '1__0']) {
    expect((await api.get(`/v1/personas/?limit=${limit}`, reader)).text, limit).toBe(
      detail({ loc: ['query', 'limit'], msg: 'value is not a valid integer', type: 'type_error.integer' }),
    )
  }
})

it('refuses malformed UUIDs with type_error.uuid, and takes what uuid.UUID() takes', async () => {
  const invalid = detail({ loc: ['query', 'team_id'], msg: 'value is not a valid uuid', type: 'type_error.uuid' })
  for (const id of ['not-a-uuid', '123', `${UNKNOWN.slice(0, -1)}g`, ''])
    expect((await api.get(`/v1/personas/?team_id=${id}`, reader)).text, id).toBe(invalid)
  const team = mock.fixtures.teams[0]!.id
  for (const id of [
    `%7B${team.toUpperCase()}%7D`,
    `urn:uuid:${team}`,
    team.replaceAll('-', ''),
    `%2B${team.slice(1)}`,
  ]) {
    const res = await api.get(`/v1/personas/?team_id=${id}`, reader)
    expect([res.status, res.text], id).toEqual(
      id.startsWith('%2B') ? [403, '{"detail":"Not authorized for this team"}'] : [200, expect.any(String)],
    )
  }
})

it("takes pydantic 1's booleans (any case, no spaces) and refuses the rest", async () => {
  for (const word of ['YES', 'off', 'T', 'n', '1', '0', 'oN'])
    expect((await api.get(`/v1/personas/?is_preset=${word}`, reader)).status, word).toBe(200)
  for (const word of ['2', 'maybe', '%20true', '']) {
    expect((await api.get(`/v1/personas/?is_preset=${word}`, reader)).text, word).toBe(
      detail({ loc: ['query', 'is_preset'], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' }),
    )
  }
})

it('refuses an unknown intent as type_error.enum, naming the permitted values', async () => {
  const res = await api.get('/v1/personas/?intents=benign&intents=Sneaky&is_preset=2', reader)
  expect(res.text).toBe(
    detail(
      {
        loc: ['query', 'intents', 1],
        msg: "value is not a valid enumeration member; permitted: 'benign', 'curious', 'adversarial', 'malicious'",
        type: 'type_error.enum',
        ctx: { enum_values: ['benign', 'curious', 'adversarial', 'malicious'] },
      },
      { loc: ['query', 'is_preset'], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' },
    ),
  )
})

it('answers a malformed policy id and a limit over 1000 together', async () => {
  expect((await api.get('/v1/policies/123/rules?limit=1001', reader)).text).toBe(
    detail(
      { loc: ['path', 'policy_id'], msg: 'value is not a valid uuid', type: 'type_error.uuid' },
      {
        loc: ['query', 'limit'],
        msg: 'ensure this value is less than or equal to 1000',
        type: 'value_error.number.not_le',
        ctx: { limit_value: 1000 },
      },
    ),
  )
})
