/**
 * `mock.override` is typed from each operation's schemas (checked by `npm run typecheck`): a wrong body, an
 * unknown operation or a status the operation does not answer are type errors; the request a function gets
 * has its parameters typed. In process: no server.
 */
import { expectTypeOf, it } from 'vitest'
import type { MockHandle } from '../../core/instance/handle.js'
import type {
  BulkAddValuesResponse,
  OperationOverride,
  OverrideRequest,
  PersonaListResponse,
  PolicyRuleListResponse,
} from '../../handlers/index.js'

declare const mock: MockHandle

it('types the body of each operation’s answer', () => {
  expectTypeOf<
    Extract<OperationOverride<'list_personas'>, { status?: 200 }>['body']
  >().toEqualTypeOf<PersonaListResponse>()
  expectTypeOf<
    Extract<OperationOverride<'bulk_add_values'>, { status?: 201 | 200 | 202 | 203 | 207 }>['body']
  >().toEqualTypeOf<BulkAddValuesResponse>()
  expectTypeOf<
    Extract<OperationOverride<'list_policy_rules'>, { status?: 200 }>['body']
  >().toEqualTypeOf<PolicyRuleListResponse>()
  // Compile-time only: the calls below are type-checked, never run.
  const check = () => {
    mock.override('list_personas', { status: 200, body: { results: [], total: 0 } })
    mock.override('list_personas', { body: { results: [], total: 0 } })
    mock.override('list_personas', { status: 404, body: { detail: 'Not Found' } })
    mock.override('list_personas', { error: 'not_authenticated' })
    mock.override('bulk_add_values', { status: 201, body: [] })
    mock.override('bulk_add_values', { status: 202, body: [] })
    // @ts-expect-error a bulk add's success carries its records: never a bodiless 204
    mock.override('bulk_add_values', { status: 204, body: [] })
    // @ts-expect-error a wrong body shape for list_personas
    mock.override('list_personas', { status: 200, body: { results: 'none', total: 0 } })
    // @ts-expect-error list_personas answers a page, not a list of values
    mock.override('list_personas', { status: 200, body: [] })
    // @ts-expect-error list_personas never answers 201
    mock.override('list_personas', { status: 201, body: { results: [], total: 0 } })
    // @ts-expect-error an error shape the server does not give
    mock.override('list_personas', { error: 'teapot' })
    // @ts-expect-error an unknown operation
    mock.override('list_people', { error: 'not_found' })
  }
  expectTypeOf(check).toBeFunction()
})

it('types the parsed request a function is given', () => {
  expectTypeOf<OverrideRequest<'list_personas'>['query']>().toEqualTypeOf<{
    team_id: string | null
    intents: string[] | null
    is_preset: boolean | null
    search: string | null
    limit: number
    offset: number
  }>()
  expectTypeOf<OverrideRequest<'list_policy_rules'>['params']>().toEqualTypeOf<{ policy_id: string }>()
  expectTypeOf<OverrideRequest<'bulk_add_values'>['body']['values'][number]['value']>().toEqualTypeOf<string>()
  expectTypeOf<OverrideRequest<'list_personas'>['claims']['permissions']>().toEqualTypeOf<string[]>()
  const check = () => {
    mock.override('list_personas', (req) => {
      expectTypeOf(req.query.limit).toEqualTypeOf<number>()
      expectTypeOf(req.query.intents).toEqualTypeOf<string[] | null>()
      // @ts-expect-error list_personas has no such parameter
      void req.query.policy_id
      return { body: { results: [], total: req.query.limit } }
    })
    mock.override('list_policy_rules', async (req) => ({ error: 'not_found', detail: `No ${req.params.policy_id}` }))
    // @ts-expect-error a function must return a body of the operation
    mock.override('list_personas', () => ({ body: { total: 'many' } }))
  }
  expectTypeOf(check).toBeFunction()
})
