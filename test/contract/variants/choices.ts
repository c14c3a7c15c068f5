import { HttpResponse } from 'msw'
import type { RequestHandler } from 'msw'
import type { Fixtures } from '../../../factories/fixtures.js'
import { BULK, forward, OPENAPI, override, PERSONAS, rewrite, RULES, type Json } from '../support/variant.js'
import { bodyOf } from './helpers.js'

/**
 * Correct servers that choose otherwise where the description is silent ("not shown"), each a variant
 * of the mock: verify must fail none of them. Each is what a team really built, and a defect of verify
 * once failed it.
 */

/**
 * Creates a dimension on its first bulk add: a bulk add the mock answers 404 (an unknown dimension) is
 * written to the mock's first dimension instead, and each such write is counted in `created`.
 */
export function dimensionsCreatedOnTheFly(fixtures: Fixtures, created: Json[]): RequestHandler[] {
  return [
    override('post', BULK, async (request) => {
      const response = await forward(request)
      if (response.status !== 404) return response
      created.push({ path: new URL(request.url).pathname, body: await bodyOf(request) })
      const dimension = fixtures.dimensions[0]!.id
      return forward(request, {
        url: (url) => (url.pathname = `/v1/demographics/${dimension}/values/bulk`),
      })
    }),
  ]
}

/** Rules paged by `max` and `after` (names verify does not guess), with no /openapi.json to read them from. */
export const UNGUESSED_RULES_PAGING = { rulesPaging: { limit: 'max', offset: 'after' } }
export const noDocument = (): RequestHandler[] => [
  override('get', OPENAPI, () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })),
]

/** Every timestamp in microseconds (the mock's are seconds): the unit is "not shown". */
export function microsecondTimestamps(): RequestHandler[] {
  const scaled = (record: Json) => ({
    ...record,
    ...Object.fromEntries(
      ['created_at', 'updated_at', 'reviewed_at']
        .filter((field) => Number.isInteger(record[field]))
        .map((field) => [field, record[field] * 1_000_000]),
    ),
  })
  return [
    rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map(scaled) })),
    rewrite('get', RULES, (body) => ({ ...body, results: body.results.map(scaled) })),
    rewrite('post', BULK, (body) => body.map(scaled)),
  ]
}

/**
 * Refuses in its own way: errors as `{"error": {"code", "message"}}`, an unknown policy (or another
 * team's) as 403, and a token under the Basic scheme as 400. The statuses and bodies of refusals, and how
 * the JWT is sent, are "not shown".
 */
export function ownRefusals(): RequestHandler[] {
  const refuse = (status: number, message: unknown) =>
    HttpResponse.json({ error: { code: status, message: String(message) } }, { status })
  const reshaped = (change: (status: number) => number) => async (request: Request) => {
    if (request.headers.get('authorization')?.startsWith('Basic ')) return refuse(400, 'Unsupported scheme')
    const response = await forward(request)
    if (response.status < 400 || response.status === 422) return response
    const body = (await response.json()) as { detail?: unknown }
    return refuse(change(response.status), body.detail)
  }
  return [
    override(
      'get',
      PERSONAS,
      reshaped((status) => status),
    ),
    override(
      'get',
      RULES,
      reshaped((status) => (status === 404 ? 403 : status)),
    ),
    override(
      'post',
      BULK,
      reshaped((status) => status),
    ),
  ]
}

/** Skips the invalid items of a bulk add and adds the rest (201), where the mock refuses the request. */
export function lenientBulkList(): RequestHandler[] {
  return [
    override('post', BULK, async (request) => {
      const values = (await bodyOf(request))?.values
      if (!Array.isArray(values)) return undefined
      const valid = values.filter((item: Json) => typeof item?.value === 'string')
      if (valid.length === values.length) return undefined
      return forward(request, { body: JSON.stringify({ values: valid }) })
    }),
  ]
}

/** A change to the mock's /openapi.json, as a real FastAPI + pydantic 2 server of the description writes it. */
export const documented = (change: (document: Json) => void): RequestHandler[] => [
  rewrite('get', OPENAPI, (document) => {
    change(document)
    return document
  }),
]

/**
 * A constraint as an open model (`class Constraint(BaseModel): model_config = ConfigDict(extra="allow")`, no
 * declared fields): pydantic 2 documents it with `additionalProperties: true` and no properties. The fields of a
 * constraint are "not shown".
 */
export const openConstraintModel = (): RequestHandler[] =>
  documented((document) => {
    document.components.schemas.Constraint = {
      additionalProperties: true,
      properties: {},
      title: 'Constraint',
      type: 'object',
    }
  })

/** Bulk item fields that do not take null (`display_name: str = ""`, `sort_order: int = 0`), as the description types them. */
export const bulkItemFieldsNotNullable = (): RequestHandler[] =>
  documented((document) => {
    const { properties } = document.components.schemas.DemographicValueCreate
    properties.display_name = { type: 'string', default: '', title: 'Display Name' }
    properties.sort_order = { type: 'integer', default: 0, title: 'Sort Order' }
  })

/** Rule fields declared `Optional[str] = None` (documented nullable) but never null on the wire. */
export const optionalRuleFields = (): RequestHandler[] =>
  documented((document) => {
    const rule = document.components.schemas.PolicyRule
    for (const field of ['target', 'natural_language']) {
      rule.properties[field] = { anyOf: [{ type: 'string' }, { type: 'null' }], title: rule.properties[field].title }
      rule.required = rule.required.filter((name: string) => name !== field)
    }
  })
