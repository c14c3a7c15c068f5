import { HttpResponse, type RequestHandler } from 'msw'
import type { Fixtures } from '../../auth/fixtures.js'
import { BULK, forward, numberParam, OPENAPI, override, PERSONAS, realAnswer, rewrite, RULES, setParams, type Json } from './support/variant.js'

/**
 * Deliberately broken variants of the mock, each a realistic contract bug planted in front of the
 * real handlers. `caughtBy` is the check meant to catch it; `alsoFails` the other checks the bug
 * breaks too (the test asserts the failed checks are exactly these, so every check is precise).
 */
export interface BrokenVariant {
  bug: string
  caughtBy: string
  alsoFails?: string[]
  handlers: (fixtures: Fixtures) => RequestHandler[]
}

const bearer = (token: string) => `Bearer ${token}`
const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString()
/** The items of a request the answer left out (a duplicate the mock skipped). */
function withoutReturned(sent: Json[], returned: Json[]): Json[] {
  const unmatched = returned.map((value) => value.value)
  return sent.filter((item) => {
    const at = unmatched.indexOf(item.value)
    if (at >= 0) unmatched.splice(at, 1)
    return at < 0
  })
}
const isFiltered = (request: Request) => ['intents', 'is_preset', 'search'].some((name) => new URL(request.url).searchParams.has(name))
const sortBy = (field: string) => (a: Json, b: Json) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0)

export const BROKEN_VARIANTS: BrokenVariant[] = [
  // schema
  {
    bug: 'personas lose role_description',
    caughtBy: 'schema.persona-list',
    handlers: () => [rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map(({ role_description: _, ...persona }: Json) => persona) }))],
  },
  {
    bug: 'persona timestamps as ISO strings',
    caughtBy: 'schema.persona-list',
    handlers: () => [rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map((p: Json) => ({ ...p, created_at: isoDate(p.created_at) })) }))],
  },
  {
    bug: 'rule timestamps as ISO strings',
    caughtBy: 'schema.rule-list',
    handlers: () => [rewrite('get', RULES, (body) => ({ ...body, results: body.results.map((r: Json) => ({ ...r, updated_at: isoDate(r.updated_at) })) }))],
  },
  {
    bug: 'added values get a fractional created_at',
    caughtBy: 'schema.bulk-values',
    handlers: () => [rewrite('post', BULK, (body) => body.map((value: Json) => ({ ...value, created_at: value.created_at + 0.25 })))],
  },
  // paging
  {
    bug: 'limit silently capped at 50',
    caughtBy: 'paging.limit-respected',
    handlers: () => [override('get', PERSONAS, (request) => (numberParam(request, 'limit', 10) > 50 && numberParam(request, 'limit', 10) <= 100 ? forward(request, { url: (url) => url.searchParams.set('limit', '50') }) : undefined))],
  },
  {
    bug: 'default limit of 20',
    caughtBy: 'paging.default-limit',
    handlers: () => [override('get', PERSONAS, (request) => (new URL(request.url).searchParams.has('limit') ? undefined : forward(request, { url: (url) => url.searchParams.set('limit', '20') })))],
  },
  {
    bug: 'total counts what is left after the offset',
    caughtBy: 'paging.total-stable',
    alsoFails: ['paging.past-end'],
    handlers: () => [rewrite('get', PERSONAS, (body, request) => ({ ...body, total: Math.max(0, body.total - numberParam(request, 'offset', 0)) }))],
  },
  {
    bug: 'the unfiltered total counts a soft-deleted persona',
    caughtBy: 'paging.concatenation',
    alsoFails: ['paging.limit-respected'],
    handlers: () => [rewrite('get', PERSONAS, (body, request) => (isFiltered(request) ? body : { ...body, total: body.total + 1 }))],
  },
  {
    bug: 'each page sorted by name after slicing',
    caughtBy: 'paging.concatenation',
    handlers: () => [rewrite('get', PERSONAS, (body) => ({ ...body, results: [...body.results].sort(sortBy('name')) }))],
  },
  {
    bug: 'offset ignored',
    caughtBy: 'paging.concatenation',
    alsoFails: ['paging.limit-respected', 'paging.past-end', 'validation.offset-range'],
    handlers: () => [override('get', PERSONAS, (request) => forward(request, { url: (url) => url.searchParams.delete('offset') }))],
  },
  {
    bug: 'an offset past the end answers 404',
    caughtBy: 'paging.past-end',
    handlers: () => [rewrite('get', PERSONAS, (body, request) => (numberParam(request, 'offset', 0) >= body.total && body.total > 0 ? HttpResponse.json({ detail: 'Page not found' }, { status: 404 }) : body))],
  },
  {
    bug: 'rules pages sorted by rule_id descending after slicing',
    caughtBy: 'paging.rules-concatenation',
    handlers: () => [rewrite('get', RULES, (body) => ({ ...body, results: [...body.results].sort(sortBy('rule_id')).reverse() }))],
  },
  {
    bug: 'a rules offset past the end returns the last page',
    caughtBy: 'paging.rules-past-end',
    handlers: () => [override('get', RULES, async (request) => {
      const { body } = await realAnswer(request, { url: (url) => url.searchParams.delete('offset') })
      const last = Math.max(0, body.total - numberParam(request, 'limit', 100))
      return numberParam(request, 'offset', 0) >= body.total ? forward(request, { url: (url) => url.searchParams.set('offset', String(last)) }) : undefined
    })],
  },
  {
    bug: 'rules limit not capped at 1000',
    caughtBy: 'paging.rules-bounds',
    handlers: () => [override('get', RULES, (request) => (numberParam(request, 'limit', 100) > 1000 ? forward(request, { url: (url) => url.searchParams.set('limit', '1000') }) : undefined))],
  },
  // filters
  {
    bug: 'a persona of another team slips into every page',
    caughtBy: 'filters.team-scope',
    handlers: (fixtures) => [rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map((p: Json, i: number) => (i === body.results.length - 1 ? { ...p, team_id: fixtures.teams[1]!.id } : p)) }))],
  },
  {
    bug: 'intents ignored',
    caughtBy: 'filters.intents',
    handlers: () => [override('get', PERSONAS, (request) => forward(request, { url: (url) => url.searchParams.delete('intents') }))],
  },
  {
    bug: 'only the first of several intents applies',
    caughtBy: 'filters.intents',
    handlers: () => [override('get', PERSONAS, (request) => forward(request, { url: (url) => url.searchParams.getAll('intents').slice(1).forEach((intent) => url.searchParams.delete('intents', intent)) }))],
  },
  {
    bug: 'is_preset=false ignored (a falsy check)',
    caughtBy: 'filters.is-preset',
    handlers: () => [override('get', PERSONAS, (request) => (new URL(request.url).searchParams.get('is_preset') === 'false' ? forward(request, { url: (url) => setParams(url, { is_preset: null }) }) : undefined))],
  },
  {
    bug: 'search ignores the role',
    caughtBy: 'filters.search-fields',
    handlers: () => [override('get', PERSONAS, async (request) => {
      const search = new URL(request.url).searchParams.get('search')?.toLowerCase()
      if (!search) return undefined
      const all = await realAnswer(request, { url: (url) => setParams(url, { search: null, offset: null, limit: '100' }) })
      const results = all.body.results.filter((p: Json) => `${p.name}\n${p.description ?? ''}`.toLowerCase().includes(search))
      const offset = numberParam(request, 'offset', 0)
      return HttpResponse.json({ results: results.slice(offset, offset + numberParam(request, 'limit', 10)), total: results.length })
    })],
  },
  {
    bug: 'search ignored when intents are given',
    caughtBy: 'filters.combined',
    handlers: () => [override('get', PERSONAS, (request) => (new URL(request.url).searchParams.has('intents') ? forward(request, { url: (url) => setParams(url, { search: null }) }) : undefined))],
  },
  // validation
  {
    bug: 'uncapped limit: 101 accepted',
    caughtBy: 'validation.limit-range',
    handlers: () => [override('get', PERSONAS, (request) => (numberParam(request, 'limit', 10) > 100 ? forward(request, { url: (url) => url.searchParams.set('limit', '100') }) : undefined))],
  },
  {
    bug: 'a negative offset is read as 0',
    caughtBy: 'validation.offset-range',
    handlers: () => [override('get', PERSONAS, (request) => (numberParam(request, 'offset', 0) < 0 ? forward(request, { url: (url) => url.searchParams.set('offset', '0') }) : undefined))],
  },
  {
    bug: 'wrong error shape: 422 detail as one string',
    caughtBy: 'validation.limit-range',
    alsoFails: ['validation.offset-range', 'validation.uuid'],
    handlers: () => [rewrite('get', PERSONAS, (body, _request, status) => (status === 422 ? { detail: body.detail.map((error: Json) => error.msg).join('; ') } : body), { all: true })],
  },
  {
    bug: 'a malformed team_id answers 400',
    caughtBy: 'validation.uuid',
    handlers: () => [rewrite('get', PERSONAS, (body, _request, status) => (status === 422 && body.detail[0].loc[1] === 'team_id' ? HttpResponse.json({ detail: 'Invalid team_id' }, { status: 400 }) : body), { all: true })],
  },
  {
    bug: 'a body without values answers 400 "values is required"',
    caughtBy: 'validation.body',
    handlers: () => [override('post', BULK, async (request) => ('values' in ((await request.clone().json().catch(() => ({ values: [] }))) ?? {}) ? undefined : HttpResponse.json({ detail: 'values is required' }, { status: 400 })))],
  },
  // auth
  {
    bug: 'no token: the personas are listed anyway',
    caughtBy: 'auth.no-token',
    handlers: (fixtures) => [override('get', PERSONAS, (request) => (request.headers.has('authorization') ? undefined : forward(request, { headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.team_reader)) })))],
  },
  {
    bug: 'token signature not verified',
    caughtBy: 'auth.malformed-token',
    handlers: (fixtures) => [override('get', PERSONAS, (request) => {
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
      const signedAs = Object.values(fixtures.tokens).find((known) => known !== token && known.split('.').slice(0, 2).join('.') === token.split('.').slice(0, 2).join('.'))
      return signedAs ? forward(request, { headers: (headers) => headers.set('authorization', bearer(signedAs)) }) : undefined
    })],
  },
  {
    bug: 'any authorization scheme accepted',
    caughtBy: 'auth.wrong-scheme',
    handlers: () => [override('get', PERSONAS, (request) => forward(request, { headers: (headers) => headers.set('authorization', (headers.get('authorization') ?? '').replace(/^Basic /, 'Bearer ')) }))],
  },
  {
    bug: 'permissions not checked',
    caughtBy: 'auth.no-permission',
    handlers: (fixtures) => [override('get', PERSONAS, (request) => (request.headers.get('authorization') === bearer(fixtures.tokens.no_permissions) ? forward(request, { headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.team_reader)) }) : undefined))],
  },
  {
    bug: 'team_id not checked against the token',
    caughtBy: 'auth.other-team',
    handlers: (fixtures) => [override('get', PERSONAS, (request) => {
      const asksATeam = new URL(request.url).searchParams.has('team_id') && request.headers.get('authorization') === bearer(fixtures.tokens.team_reader)
      return asksATeam ? forward(request, { headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)) }) : undefined
    })],
  },
  {
    bug: 'bulk add open to any signed-in user',
    caughtBy: 'auth.bulk-requires-admin',
    handlers: (fixtures) => [override('post', BULK, (request) => (request.headers.has('authorization') ? forward(request, { headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)) }) : undefined))],
  },
  // errors
  {
    bug: 'an unknown policy answers 200 with no rules',
    caughtBy: 'errors.unknown-policy',
    handlers: () => [rewrite('get', RULES, (body, _request, status) => (status === 404 ? HttpResponse.json({ results: [], total: 0 }) : body), { all: true })],
  },
  {
    bug: 'an unknown dimension answers 500',
    caughtBy: 'errors.unknown-dimension',
    handlers: () => [override('post', BULK, async (request) => {
      const response = await forward(request)
      return response.status === 404 ? new HttpResponse('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } }) : response
    })],
  },
  // bulk add
  {
    bug: 'a value sent without sort_order gets 0',
    caughtBy: 'bulk.defaults',
    handlers: () => [rewrite('post', BULK, async (body, request) => {
      const sent = (await request.clone().json()).values as Json[]
      return body.map((value: Json, i: number) => (sent[i]?.sort_order === undefined ? { ...value, sort_order: 0 } : value))
    })],
  },
  {
    bug: 'metadata not returned',
    caughtBy: 'bulk.records',
    handlers: () => [rewrite('post', BULK, (body) => body.map((value: Json) => ({ ...value, value_metadata: {} })))],
  },
  {
    bug: 'duplicates added again',
    caughtBy: 'bulk.duplicates',
    handlers: () => [rewrite('post', BULK, async (body, request) => {
      const sent = (await request.clone().json()).values as Json[]
      const skipped = withoutReturned(sent, body)
      return [...body, ...skipped.map((item) => ({ ...body[0], id: crypto.randomUUID(), value: item.value, display_name: item.value }))]
    })],
  },
  {
    bug: 'the valid items of a refused bulk add are kept',
    caughtBy: 'bulk.all-or-nothing',
    handlers: () => [override('post', BULK, async (request) => {
      const response = await forward(request)
      if (response.status !== 422) return response
      const sent = await request.clone().json().catch(() => undefined)
      const valid = Array.isArray(sent?.values) ? sent.values.filter((item: Json) => typeof item?.value === 'string') : []
      if (valid.length > 0) await forward(request, { body: JSON.stringify({ values: valid }) })
      return response
    })],
  },
  // drift
  {
    bug: '/openapi.json lacks the bulk add',
    caughtBy: 'drift.operations',
    handlers: () => [rewrite('get', OPENAPI, (document) => ({ ...document, paths: { ...document.paths, '/v1/demographics/{dimension_id}/values/bulk': undefined } }))],
  },
  {
    bug: '/openapi.json declares a personas limit up to 1000',
    caughtBy: 'drift.parameters',
    handlers: () => [rewrite('get', OPENAPI, (document) => {
      document.paths['/v1/personas/'].get.parameters.find((parameter: Json) => parameter.name === 'limit').schema.maximum = 1000
      return document
    })],
  },
  {
    bug: '/openapi.json lacks sort_order in the bulk add body',
    caughtBy: 'drift.request-body',
    handlers: () => [rewrite('get', OPENAPI, (document) => {
      delete document.components.schemas.DemographicValueCreate.properties.sort_order
      return document
    })],
  },
  {
    bug: '/openapi.json declares Persona.created_at a date-time string',
    caughtBy: 'drift.responses',
    handlers: () => [rewrite('get', OPENAPI, (document) => {
      document.components.schemas.Persona.properties.created_at = { type: 'string', format: 'date-time', title: 'Created At' }
      return document
    })],
  },
]
