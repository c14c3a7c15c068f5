import { HttpResponse } from 'msw'
import {
  BULK,
  forward,
  numberParam,
  override,
  PERSONAS,
  realAnswer,
  rewrite,
  RULES,
  type Json,
} from '../support/variant.js'
import { type BrokenVariant, isFiltered, isoDate, sortBy } from './helpers.js'

/** Broken variants for schema and paging. */
export const SCHEMA_AND_PAGING: BrokenVariant[] = [
  // schema
  {
    // created_by, not role_description: the description marks role_description "Required: no" (absent: a warning).
    bug: 'personas lose created_by',
    caughtBy: 'schema.persona-list',
    handlers: () => [
      rewrite('get', PERSONAS, (body) => ({
        ...body,
        results: body.results.map(({ created_by: _, ...persona }: Json) => persona),
      })),
    ],
  },
  {
    bug: 'persona timestamps as ISO strings',
    caughtBy: 'schema.persona-list',
    handlers: () => [
      rewrite('get', PERSONAS, (body) => ({
        ...body,
        results: body.results.map((p: Json) => ({ ...p, created_at: isoDate(p.created_at) })),
      })),
    ],
  },
  {
    // JSON.parse reads 1700000000.0 as 1700000000: only the text shows the float a typed client refuses.
    bug: 'persona timestamps written as floats (1700000000.0)',
    caughtBy: 'schema.persona-list',
    handlers: () => [
      override('get', PERSONAS, async (request) => {
        const response = await forward(request)
        if (response.status !== 200) return response
        const text = (await response.text()).replace(/"created_at":(\d+)/g, '"created_at":$1.0')
        return new HttpResponse(text, { headers: { 'content-type': 'application/json' } })
      }),
    ],
  },
  {
    bug: 'rule timestamps as ISO strings',
    caughtBy: 'schema.rule-list',
    handlers: () => [
      rewrite('get', RULES, (body) => ({
        ...body,
        results: body.results.map((r: Json) => ({ ...r, updated_at: isoDate(r.updated_at) })),
      })),
    ],
  },
  {
    bug: 'added values get a fractional created_at',
    caughtBy: 'schema.bulk-values',
    handlers: () => [
      rewrite('post', BULK, (body) => body.map((value: Json) => ({ ...value, created_at: value.created_at + 0.25 }))),
    ],
  },
  // paging
  {
    bug: 'the rules offset ignored unless a limit is given',
    caughtBy: 'paging.rules-concatenation',
    handlers: () => [
      // Validated all the same (offset=-1 is still a 422): only a valid offset is left unused.
      override('get', RULES, (request) => {
        const params = new URL(request.url).searchParams
        return params.has('limit') || !/^\d+$/.test(params.get('offset') ?? '')
          ? undefined
          : forward(request, { url: (url) => url.searchParams.delete('offset') })
      }),
    ],
  },
  {
    bug: 'limit silently capped at 50',
    caughtBy: 'paging.limit-respected',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        numberParam(request, 'limit', 10) > 50 && numberParam(request, 'limit', 10) <= 100
          ? forward(request, { url: (url) => url.searchParams.set('limit', '50') })
          : undefined,
      ),
    ],
  },
  {
    bug: 'default limit of 20',
    caughtBy: 'paging.default-limit',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        new URL(request.url).searchParams.has('limit')
          ? undefined
          : forward(request, { url: (url) => url.searchParams.set('limit', '20') }),
      ),
    ],
  },
  {
    bug: 'total counts what is left after the offset',
    caughtBy: 'paging.total-stable',
    alsoFails: ['paging.past-end', 'filters.paged'],
    handlers: () => [
      rewrite('get', PERSONAS, (body, request) => ({
        ...body,
        total: Math.max(0, body.total - numberParam(request, 'offset', 0)),
      })),
    ],
  },
  {
    bug: 'the unfiltered total counts a soft-deleted persona',
    caughtBy: 'paging.concatenation',
    alsoFails: ['paging.limit-respected'],
    handlers: () => [
      rewrite('get', PERSONAS, (body, request) => (isFiltered(request) ? body : { ...body, total: body.total + 1 })),
    ],
  },
  {
    bug: 'each page sorted by name after slicing',
    caughtBy: 'paging.concatenation',
    handlers: () => [
      rewrite('get', PERSONAS, (body) => ({ ...body, results: [...body.results].sort(sortBy('name')) })),
    ],
  },
  {
    bug: 'offset ignored',
    caughtBy: 'paging.concatenation',
    alsoFails: ['paging.limit-respected', 'paging.past-end', 'validation.offset-range', 'filters.paged'],
    handlers: () => [
      override('get', PERSONAS, (request) => forward(request, { url: (url) => url.searchParams.delete('offset') })),
    ],
  },
  {
    bug: 'an offset past the end answers 404',
    caughtBy: 'paging.past-end',
    handlers: () => [
      rewrite('get', PERSONAS, (body, request) =>
        numberParam(request, 'offset', 0) >= body.total && body.total > 0
          ? HttpResponse.json({ detail: 'Page not found' }, { status: 404 })
          : body,
      ),
    ],
  },
  {
    bug: 'rules pages sorted by rule_id descending after slicing',
    caughtBy: 'paging.rules-concatenation',
    handlers: () => [
      rewrite('get', RULES, (body) => ({ ...body, results: [...body.results].sort(sortBy('rule_id')).reverse() })),
    ],
  },
  {
    bug: 'a rules offset past the end returns the last page',
    caughtBy: 'paging.rules-past-end',
    handlers: () => [
      override('get', RULES, async (request) => {
        const { body } = await realAnswer(request, { url: (url) => url.searchParams.delete('offset') })
        const last = Math.max(0, body.total - numberParam(request, 'limit', 100))
        return numberParam(request, 'offset', 0) >= body.total
          ? forward(request, { url: (url) => url.searchParams.set('offset', String(last)) })
          : undefined
      }),
    ],
  },
  {
    bug: 'rules limit not capped at 1000',
    caughtBy: 'paging.rules-bounds',
    handlers: () => [
      override('get', RULES, (request) =>
        numberParam(request, 'limit', 100) > 1000
          ? forward(request, { url: (url) => url.searchParams.set('limit', '1000') })
          : undefined,
      ),
    ],
  },
]
