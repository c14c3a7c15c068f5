import { HttpResponse } from 'msw'
import {
  forward,
  numberParam,
  override,
  PERSONAS,
  realAnswer,
  rewrite,
  setParams,
  type Json,
} from '../support/variant.js'
import type { BrokenVariant } from './helpers.js'

/** Broken variants for the filters. */
export const FILTERS: BrokenVariant[] = [
  // filters
  {
    bug: 'a persona of another team slips into every page',
    caughtBy: 'filters.team-scope',
    handlers: (fixtures) => [
      rewrite('get', PERSONAS, (body) => ({
        ...body,
        results: body.results.map((p: Json, i: number) =>
          i === body.results.length - 1 ? { ...p, team_id: fixtures.teams[1]!.id } : p,
        ),
      })),
    ],
  },
  {
    bug: 'intents ignored',
    caughtBy: 'filters.intents',
    handlers: () => [
      override('get', PERSONAS, (request) => forward(request, { url: (url) => url.searchParams.delete('intents') })),
    ],
  },
  {
    bug: 'only the first of several intents applies',
    caughtBy: 'filters.intents',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        forward(request, {
          url: (url) => {
            for (const intent of url.searchParams.getAll('intents').slice(1)) url.searchParams.delete('intents', intent)
          },
        }),
      ),
    ],
  },
  {
    bug: 'is_preset=false ignored (a falsy check)',
    caughtBy: 'filters.is-preset',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        new URL(request.url).searchParams.get('is_preset') === 'false'
          ? forward(request, { url: (url) => setParams(url, { is_preset: null }) })
          : undefined,
      ),
    ],
  },
  {
    bug: 'search ignores the role',
    caughtBy: 'filters.search-fields',
    handlers: () => [
      override('get', PERSONAS, async (request) => {
        const search = new URL(request.url).searchParams.get('search')?.toLowerCase()
        if (!search) return undefined
        const all = await realAnswer(request, {
          url: (url) => setParams(url, { search: null, offset: null, limit: '100' }),
        })
        const results = all.body.results.filter((p: Json) =>
          `${p.name}\n${p.description ?? ''}`.toLowerCase().includes(search),
        )
        const offset = numberParam(request, 'offset', 0)
        return HttpResponse.json({
          results: results.slice(offset, offset + numberParam(request, 'limit', 10)),
          total: results.length,
        })
      }),
    ],
  },
  {
    // Words of a field that is not searched, found in no searched field: only a search for one of them shows it.
    bug: 'search also matches role_description, whose words no searched field holds',
    caughtBy: 'filters.search-fields',
    handlers: () => [
      override('get', PERSONAS, async (request) => {
        const search = new URL(request.url).searchParams.get('search')?.toLowerCase()
        const all = await realAnswer(request, {
          url: (url) =>
            setParams(url, {
              search: null,
              offset: search ? null : url.searchParams.get('offset'),
              limit: search ? '100' : url.searchParams.get('limit'),
            }),
        })
        if (all.status !== 200) return forward(request)
        const personas = all.body.results.map((p: Json) => ({
          ...p,
          role_description: 'Quixotic',
        }))
        if (!search) return HttpResponse.json({ ...all.body, results: personas })
        const results = personas.filter((p: Json) =>
          ['name', 'description', 'role', 'role_description'].some((field) =>
            String(p[field] ?? '')
              .toLowerCase()
              .includes(search),
          ),
        )
        const offset = numberParam(request, 'offset', 0)
        return HttpResponse.json({
          results: results.slice(offset, offset + numberParam(request, 'limit', 10)),
          total: results.length,
        })
      }),
    ],
  },
  {
    bug: 'search ignored when intents are given',
    caughtBy: 'filters.combined',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        new URL(request.url).searchParams.has('intents')
          ? forward(request, { url: (url) => setParams(url, { search: null }) })
          : undefined,
      ),
    ],
  },
]
