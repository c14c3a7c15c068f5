/**
 * The exported wire types (model/api/wire-types.ts) hold what the mock really sends and takes. Each check is a
 * chain: the real answer, parsed from its JSON, has exactly the schema's fields and passes it (runtime); the
 * schema's output has exactly the type's fields and is assignable to it, `sort_order` read as JSON reads it
 * (compile time, `npm run typecheck`). In process: no server, no network.
 */
import { expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import {
  type BulkAddValues,
  type BulkAddValuesResponse,
  createCore,
  type DemographicValue,
  type HTTPError,
  type HTTPValidationError,
  type ListPersonasParams,
  MockInstance,
  type Persona,
  type PersonaListResponse,
  type PolicyRule,
  type PolicyRuleListResponse,
  schemas,
  type ValidationError,
} from '../../handlers/index.js'

const BASE = 'http://mock.test'
const instance = await MockInstance.create({ seed: 3, personasPerTeam: 4 })
const core = createCore({ instance, baseUrl: BASE })
const { tokens, teams, policies, dimensions } = instance.fixtures

/** A real answer of the mock, its body parsed from the bytes sent, as a frontend's `response.json()` does. */
async function call(path: string, token: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }
  const response = await core.fetch(new Request(`${BASE}${path}`, init))
  return { status: response.status, json: JSON.parse(await response.text()) }
}

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort()
const sorted = (record: unknown) => Object.keys(record as object).sort()

it('types a real page of personas: the fields of the answer are the fields of Persona', async () => {
  const params: ListPersonasParams = { team_id: teams[0]!.id, limit: 3, intents: ['benign', 'curious'] }
  const query = new URLSearchParams({ team_id: String(params.team_id), limit: String(params.limit) })
  const { status, json } = await call(`/v1/personas/?${query}`, tokens.team_reader)
  expect(status).toBe(200)
  const page: PersonaListResponse = schemas.PersonaListResponse.parse(json)
  expect(sorted(json)).toEqual(keysOf(schemas.PersonaListResponse))
  expect(page.results).toHaveLength(3)
  for (const persona of (json as { results: unknown[] }).results)
    expect(sorted(persona)).toEqual(keysOf(schemas.Persona))

  expectTypeOf<keyof Persona>().toEqualTypeOf<keyof z.output<typeof schemas.Persona>>()
  expectTypeOf<z.output<typeof schemas.Persona>>().toExtend<Persona>()
  expectTypeOf<Persona>().toExtend<z.output<typeof schemas.Persona>>()
  expectTypeOf<PersonaListResponse['results']>().toEqualTypeOf<Persona[]>()
  expectTypeOf<PersonaListResponse['total']>().toEqualTypeOf<number>()
  expectTypeOf<Persona['intent']>().toEqualTypeOf<'benign' | 'curious' | 'adversarial' | 'malicious'>()
  expectTypeOf<Persona['description']>().toEqualTypeOf<string | null>()
})

it('types a real page of rules: the fields of the answer are the fields of PolicyRule', async () => {
  const { status, json } = await call(`/v1/policies/${policies[0]!.id}/rules?limit=2`, tokens.team_reader)
  expect(status).toBe(200)
  const page: PolicyRuleListResponse = schemas.PolicyRuleListResponse.parse(json)
  expect(page.results.length).toBeGreaterThan(0)
  for (const rule of (json as { results: unknown[] }).results) expect(sorted(rule)).toEqual(keysOf(schemas.PolicyRule))

  expectTypeOf<keyof PolicyRule>().toEqualTypeOf<keyof z.output<typeof schemas.PolicyRule>>()
  expectTypeOf<z.output<typeof schemas.PolicyRule>>().toExtend<PolicyRule>()
  expectTypeOf<PolicyRule>().toExtend<z.output<typeof schemas.PolicyRule>>()
  expectTypeOf<PolicyRule['provenance']['source_location']['paragraph']>().toEqualTypeOf<number>()
})

it('types the bulk add: a BulkAddValues body is taken, and its answer has numbers for sort_order', async () => {
  const body: BulkAddValues = {
    values: [
      { value: 'wire-types-a' },
      { value: 'wire-types-b', display_name: 'B', sort_order: 7, metadata: { k: 1 } },
    ],
  }
  const { status, json } = await call(`/v1/demographics/${dimensions[0]!.id}/values/bulk`, tokens.super_admin, body)
  expect(status).toBe(201)
  const values = json as BulkAddValuesResponse
  expect(values.map((v) => v.value)).toEqual(['wire-types-a', 'wire-types-b'])
  for (const value of values) {
    expect(sorted(value)).toEqual(keysOf(schemas.DemographicValue))
    expect(typeof value.sort_order, 'JSON has one number type').toBe('number')
    schemas.DemographicValue.parse(value)
  }
  // Ordinary frontend code, which failed to compile while sort_order was `number | bigint`.
  expect(Math.max(...values.map((v) => v.sort_order))).toBe(7)

  expectTypeOf<DemographicValue['sort_order']>().toEqualTypeOf<number>()
  expectTypeOf<DemographicValue['value_metadata']>().toEqualTypeOf<{ [key: string]: unknown }>()
  expectTypeOf<keyof DemographicValue>().toEqualTypeOf<keyof z.output<typeof schemas.DemographicValue>>()
  type Internal = z.output<typeof schemas.DemographicValue>
  expectTypeOf<Internal['sort_order']>().toEqualTypeOf<number | bigint>()
  type JsonRead = Pick<DemographicValue, 'sort_order' | 'value_metadata'>
  expectTypeOf<Omit<Internal, 'sort_order' | 'value_metadata'> & JsonRead>().toExtend<DemographicValue>()
  expectTypeOf<DemographicValue>().toExtend<Internal>()
  expectTypeOf<{ values: [{ value: 'x' }] }>().toExtend<BulkAddValues>()
  expectTypeOf<{ values: [{ display_name: 'no value' }] }>().not.toExtend<BulkAddValues>()
  expectTypeOf<BulkAddValuesResponse>().toEqualTypeOf<DemographicValue[]>()
})

it('types the error bodies: a real 422 is an HTTPValidationError, a real 401 an HTTPError', async () => {
  const invalid = await call(`/v1/personas/?team_id=${teams[0]!.id}&limit=0`, tokens.team_reader)
  expect(invalid.status).toBe(422)
  const body: HTTPValidationError = schemas.HTTPValidationError.parse(invalid.json)
  for (const entry of (invalid.json as { detail: unknown[] }).detail)
    expect(keysOf(schemas.ValidationError)).toEqual(expect.arrayContaining(sorted(entry)))
  expect(body.detail[0]?.loc).toEqual(['query', 'limit'])

  const refused = await call('/v1/personas/', 'not-a-token')
  expect(refused.status).toBe(401)
  const error: HTTPError = schemas.HTTPError.parse(refused.json)
  expect(error.detail).toBe('Could not validate credentials')

  expectTypeOf<ValidationError['loc']>().toEqualTypeOf<(string | number)[]>()
  // What FastAPI declares is enough: pydantic 1 sends no `input`.
  expectTypeOf<{ loc: string[]; msg: string; type: string }>().toExtend<ValidationError>()
  expectTypeOf<HTTPValidationError['detail']>().toEqualTypeOf<ValidationError[]>()
  expectTypeOf<HTTPError>().toEqualTypeOf<{ detail: string }>()
  expectTypeOf<z.output<typeof schemas.HTTPValidationError>>().toExtend<HTTPValidationError>()
})
