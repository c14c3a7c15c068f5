import { afterEach, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DEFAULT_PROFILE, mintToken, resolveProfile, type ProfileOptions } from 'agent-console-mock'
import { client } from '../support/client.js'

/**
 * intents, bounds, declaredErrors and errorTexts: what each changes, in the default (pydantic 2) dialect
 * and in pydantic 1's.
 */
let mock: MockServer | undefined
afterEach(() => {
  mock?.close()
  mock = undefined
})

const start = async (profile: ProfileOptions) => {
  mock = await createMockServer({ seed: 4, profile })
  return {
    mock,
    api: client(mock),
    tokens: mock.fixtures.tokens,
    doc: async () => (await client(mock!).get('/openapi.json')).text,
  }
}
const UNKNOWN = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'

it('keeps every answer of the default profile: the new settings default to what the mock did before', () => {
  expect(DEFAULT_PROFILE).toMatchObject({
    pydantic: '2.12',
    intents: 'string',
    bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: 1000, valueMaxLength: 255 },
    declaredErrors: {},
    errorTexts: {},
  })
  expect(() => resolveProfile({ declaredErrors: { list_personas: [200] } })).toThrow(/declaredErrors\.list_personas\.0/)
  expect(() => resolveProfile({ errorTexts: { policyMissing: 'x' } as never })).toThrow(/errorTexts/)
})

it('validates intents as the Intent enum with intents: enum, and declares it', async () => {
  const { api, tokens, doc } = await start({ intents: 'enum' })
  const expected = "'benign', 'curious', 'adversarial' or 'malicious'"
  expect((await api.get('/v1/personas/?intents=benign&intents=Sneaky', tokens.team_reader)).text).toBe(
    JSON.stringify({
      detail: [
        {
          type: 'enum',
          loc: ['query', 'intents', 1],
          msg: `Input should be ${expected}`,
          input: 'Sneaky',
          ctx: { expected },
        },
      ],
    }),
  )
  expect((await api.get('/v1/personas/?intents=adversarial', tokens.team_reader)).status).toBe(200)
  expect(await doc()).toContain(
    '"schema":{"anyOf":[{"type":"array","items":{"$ref":"#/components/schemas/Intent"}},{"type":"null"}],"title":"Intents"}',
  )
})

it('moves or drops the declared bounds, in validation and in the document alike', async () => {
  const { mock, api, tokens, doc } = await start({
    bounds: { personasLimitMax: 50, rulesLimitMax: null, bulkMaxItems: 2, valueMaxLength: null },
  })
  expect((await api.get('/v1/personas/?limit=51', tokens.team_reader)).body.detail[0]).toMatchObject({
    type: 'less_than_equal',
    ctx: { le: 50 },
  })
  expect(
    (await api.get(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules?limit=100000`, tokens.team_reader)).status,
  ).toBe(200)
  const tooMany = await api.post(
    `/v1/demographics/${UNKNOWN}/values/bulk`,
    { values: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] },
    tokens.super_admin,
  )
  expect(tooMany.body.detail[0]).toMatchObject({
    type: 'too_long',
    msg: 'List should have at most 2 items after validation, not 3',
  })
  const long = await api.post(
    `/v1/demographics/${UNKNOWN}/values/bulk`,
    { values: [{ value: 'x'.repeat(300) }, { value: '' }] },
    tokens.super_admin,
  )
  expect(long.status, 'no length bound at all: 404, not 422').toBe(404)
  const text = await doc()
  expect(text).toContain('"schema":{"type":"integer","maximum":50,"minimum":1,"default":10,"title":"Limit"}')
  expect(text).toContain('"schema":{"type":"integer","minimum":1,"default":100,"title":"Limit"}')
  expect(text).toContain(
    '"values":{"items":{"$ref":"#/components/schemas/DemographicValueCreate"},"type":"array","maxItems":2,"title":"Values"}',
  )
  expect(text).toContain('"value":{"type":"string","title":"Value"}')
})

it("declares the profile's error answers after the success answer, before the 422, as ordered", async () => {
  const declaredErrors = { list_personas: [401, 403], bulk_add_values: [503, 404, 401] }
  const v2 = await (await start({ declaredErrors })).doc()
  expect(v2).toContain(
    '"responses":{"200":{"description":"Successful Response","content":{"application/json":{"schema":{"$ref":"#/components/schemas/PersonaListResponse"}}}},"401":{"description":"Unauthorized"},"403":{"description":"Forbidden"},"422":',
  )
  expect(v2, 'FastAPI keeps its insertion order; a JS object would sort the codes').toMatch(
    /"503":\{"description":"Service Unavailable"\},"404":\{"description":"Not Found"\},"401":\{"description":"Unauthorized"\},"422":\{"description":"Validation Error"/,
  )
  expect(v2).toContain(
    '"responses":{"200":{"description":"Successful Response","content":{"application/json":{"schema":{"$ref":"#/components/schemas/PolicyRuleListResponse"}}}},"422":',
  )
  mock!.close()
  const v1 = await (await start({ pydantic: '1', declaredErrors })).doc()
  expect(v1).toContain(
    '"401":{"description":"Unauthorized"},"403":{"description":"Forbidden"},"422":{"description":"Validation Error"',
  )
})

it("writes the profile's texts in every refusal the server writes itself", async () => {
  const errorTexts = {
    notAuthenticated: 'Login first',
    invalidToken: 'Bad token',
    teamForbidden: 'Wrong team',
    teamRequired: 'Which team?',
    missingPermission: 'Needs {permission}',
    superAdminRequired: 'Admins only',
    policyNotFound: 'No such policy',
    dimensionNotFound: 'No such dimension',
    duplicateValues: 'Already there: {values}',
  }
  const { mock, api, tokens } = await start({ errorTexts, bulkDuplicates: 'reject' })
  const detail = async (res: Promise<{ status: number; body: { detail: string } }>) => [
    (await res).status,
    (await res).body.detail,
  ]
  const dimension = mock.fixtures.dimensions[0]!.id
  const expired = tokens.expired
  const noTeam = await mintToken({ sub: 'x', permissions: ['persona:read'] }, mock.jwtSecret)
  expect(await detail(api.get('/v1/personas/'))).toEqual([401, 'Login first'])
  expect(await detail(api.get('/v1/personas/', expired))).toEqual([401, 'Bad token'])
  expect(await detail(api.get(`/v1/personas/?team_id=${UNKNOWN}`, tokens.team_reader))).toEqual([403, 'Wrong team'])
  expect(await detail(api.get('/v1/personas/', noTeam))).toEqual([400, 'Which team?'])
  expect(await detail(api.get('/v1/personas/', tokens.no_permissions))).toEqual([403, 'Needs persona:read'])
  expect(await detail(api.get(`/v1/policies/${UNKNOWN}/rules`, tokens.persona_reader))).toEqual([
    403,
    'Needs policy:read',
  ])
  expect(await detail(api.get(`/v1/policies/${UNKNOWN}/rules`, tokens.team_reader))).toEqual([404, 'No such policy'])
  expect(
    await detail(api.post(`/v1/demographics/${dimension}/values/bulk`, { values: [] }, tokens.team_reader)),
  ).toEqual([403, 'Admins only'])
  expect(await detail(api.post(`/v1/demographics/${UNKNOWN}/values/bulk`, { values: [] }, tokens.super_admin))).toEqual(
    [404, 'No such dimension'],
  )
  const twice = { values: [{ value: 'q1' }, { value: 'q1' }, { value: 'q2' }, { value: 'q2' }] }
  expect(await detail(api.post(`/v1/demographics/${dimension}/values/bulk`, twice, tokens.super_admin))).toEqual([
    409,
    'Already there: q1, q2',
  ])
  mock.close()
  const strict = await start({ errorTexts, missingCredentialsStatus: 403 })
  expect(await detail(strict.api.get('/v1/personas/'))).toEqual([403, 'Login first'])
  expect(
    await detail(strict.api.get('/v1/personas/', undefined, { authorization: 'Basic x' })),
    "FastAPI's own text stays",
  ).toEqual([403, 'Invalid authentication credentials'])
})

it('names what a setting takes, and the setting a misspelt one is nearest to, in a refused profile', () => {
  const refusal = (options: unknown) => {
    try {
      resolveProfile(options as ProfileOptions)
    } catch (error) {
      return (error as Error).message
    }
    throw new Error(`${JSON.stringify(options)} was taken`)
  }
  expect(refusal({ missingCredentialsStatus: 418 })).toBe(
    'Invalid mock profile. missingCredentialsStatus: Invalid option: expected one of 401|403',
  )
  expect(refusal({ bulkAddStatus: '201' })).toBe(
    'Invalid mock profile. bulkAddStatus: Invalid option: expected one of 201|200|202|203|207',
  )
  expect(refusal({ missingCredentialStatus: 403 })).toBe(
    'Invalid mock profile. (profile): Unrecognized key: "missingCredentialStatus" (did you mean "missingCredentialsStatus"?)',
  )
  expect(refusal({ bounds: { personasLimitMx: 5 } })).toBe(
    'Invalid mock profile. bounds: Unrecognized key: "personasLimitMx" (did you mean "personasLimitMax"?)',
  )
  expect(refusal({ errorTexts: { teamRequird: 'x' } })).toContain('(did you mean "teamRequired"?)')
  expect(refusal({ somethingElse: true }), 'nothing near: no guess').toBe(
    'Invalid mock profile. (profile): Unrecognized key: "somethingElse"',
  )
})
