import { HttpResponse } from 'msw'
import {
  forward,
  numberParam,
  override,
  PERSONAS,
  realAnswer,
  rewrite,
  RULES,
  setParams,
  type Json,
} from '../support/variant.js'
import type { BrokenVariant } from './helpers.js'
import { filterAfterPaging } from './hunted.js'

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
    // `if team_id: query = query.where(team_id=...)`: without team_id the filter is skipped, not defaulted.
    bug: "without team_id, every team's personas are listed",
    caughtBy: 'filters.team-scope',
    handlers: (fixtures) => [
      override('get', PERSONAS, async (request) => {
        const url = new URL(request.url)
        if (url.searchParams.has('team_id')) return undefined
        const teams = await Promise.all(
          fixtures.teams.map((team) =>
            realAnswer(request, {
              url: (each) => setParams(each, { team_id: team.id, offset: '0', limit: '100' }),
              headers: (headers) => headers.set('authorization', `Bearer ${fixtures.tokens.super_admin}`),
            }),
          ),
        )
        if (teams.some((team) => team.status !== 200)) return forward(request)
        const all = teams
          .flatMap((team) => team.body.results)
          .sort((a: Json, b: Json) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
        const offset = numberParam(request, 'offset', 0)
        return HttpResponse.json({
          results: all.slice(offset, offset + numberParam(request, 'limit', 10)),
          total: all.length,
        })
      }),
    ],
  },
  {
    // A join on the wrong key: the policy's last rule on each page comes from another policy.
    bug: 'a rule of another policy slips into every rules page',
    caughtBy: 'filters.policy-scope',
    handlers: (fixtures) => [
      rewrite('get', RULES, (body, request) => {
        const asked = new URL(request.url).pathname.split('/')[3]
        const other = fixtures.policies.find((policy) => policy.id !== asked)!.id
        return {
          ...body,
          results: body.results.map((rule: Json, i: number) =>
            i === body.results.length - 1 ? { ...rule, policy_id: other } : rule,
          ),
        }
      }),
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
    alsoFails: ['filters.paged'],
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
    handlers: () => [searchingWith((p, search) => [p.name, p.description].some(holds(search)))],
  },
  {
    // Words of a field that is not searched, found in no searched field: only a search for one of them shows it.
    bug: 'search also matches role_description, whose words no searched field holds',
    caughtBy: 'filters.search-fields',
    handlers: () => [
      searchingWith(
        (p, search) => [p.name, p.description, p.role, p.role_description].some(holds(search)),
        (p) => ({ ...p, role_description: 'Quixotic' }),
      ),
    ],
  },
  {
    // A search over every text column. The first persona's first usable unsearched word is its knowledge_level:
    // a term per unsearched field is needed to see skill_level searched too.
    bug: 'search also matches skill_level',
    caughtBy: 'filters.search-fields',
    handlers: () => [searchingWith((p, search) => [p.name, p.description, p.role, p.skill_level].some(holds(search)))],
  },
  {
    // `ILIKE '%' || :search || '%'` without escaping: `%` matches anything, `_` any one character.
    bug: 'search treats % and _ as SQL LIKE wildcards',
    caughtBy: 'filters.search-fields',
    handlers: () => [
      searchingWith((p, search) => {
        const pattern = [...search]
          .map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('')
        return [p.name, p.description, p.role].some((field) => new RegExp(pattern, 'is').test(String(field ?? '')))
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
  {
    bug: 'filters applied to the page after offset and limit (the total still right)',
    caughtBy: 'filters.paged',
    handlers: filterAfterPaging,
  },
]

/** Whether a field holds `search` as a case-insensitive substring. */
const holds = (search: string) => (field: unknown) =>
  String(field ?? '')
    .toLowerCase()
    .includes(search.toLowerCase())

/**
 * A persona list whose search is `matches` (over every persona of the team, then paged), and whose personas are
 * `shown` as they are sent, searched or not. Answers the API's refusals as they are.
 */
function searchingWith(matches: (persona: Json, search: string) => boolean, shown = (persona: Json) => persona) {
  return override('get', PERSONAS, async (request) => {
    const search = new URL(request.url).searchParams.get('search')
    const all = await realAnswer(request, {
      url: (url) => (search ? setParams(url, { search: null, offset: null, limit: '100' }) : undefined),
    })
    if (all.status !== 200) return forward(request)
    const personas = all.body.results.map(shown)
    if (!search) return HttpResponse.json({ ...all.body, results: personas })
    const results = personas.filter((persona: Json) => matches(persona, search))
    const offset = numberParam(request, 'offset', 0)
    return HttpResponse.json({
      results: results.slice(offset, offset + numberParam(request, 'limit', 10)),
      total: results.length,
    })
  })
}
