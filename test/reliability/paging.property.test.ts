import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { fuzzParameters, timeoutFor } from './support/fuzz.js'

const RUNS = 100

type Persona = {
  id: string
  team_id: string
  name: string
  description: string | null
  role: string
  intent: string
  is_preset: boolean
  created_at: number
}
type Rule = { id: string; policy_id: string; rule_id: string; created_at: number }
type Page<T> = { results: T[]; total: number }

let mock: MockServer
let personas: Persona[]
let rules: Rule[]

beforeAll(async () => {
  mock = await createMockServer({ seed: 34, personasPerTeam: 150 })
  personas = mock.world.personas.all() as Persona[]
  rules = mock.world.rules.all() as Rule[]
})
afterAll(() => mock.close())

async function page<T>(path: string): Promise<Page<T>> {
  const res = await fetch(mock.url(path), { headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}` } })
  expect(res.status, path).toBe(200)
  return (await res.json()) as Page<T>
}

/** Every page from `start` on, `limit` at a time, and one past the end: what a client paging through gets. */
async function pageThrough<T>(path: (offset: number) => string, start: number, limit: number) {
  const pages: Array<Page<T> & { offset: number }> = []
  for (let offset = start; ; offset += limit) {
    pages.push({ ...(await page<T>(path(offset))), offset })
    if (offset >= pages[0]!.total) return pages
  }
}

/** The filter's own reading of the description, independent of the mock's index: team, intents, preset, search. */
function expectedPersonas(
  team: string,
  filter: { intents: string[] | null; isPreset: boolean | null; search: string | null },
) {
  const needle = filter.search?.toLowerCase() || undefined
  return personas
    .filter((p) => p.team_id === team)
    .filter((p) => filter.intents === null || filter.intents.includes(p.intent))
    .filter((p) => filter.isPreset === null || p.is_preset === filter.isPreset)
    .filter(
      (p) =>
        needle === undefined ||
        [p.name, p.description ?? '', p.role].some((field) => field.toLowerCase().includes(needle)),
    )
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
}

/** A search term: a piece of some persona's name, role or description in any case, or any text. */
const searchTerm = () =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...personas),
          fc.constantFrom('name', 'role', 'description'),
          fc.nat(),
          fc.integer({ min: 1, max: 6 }),
          fc.boolean(),
        )
        .map(([p, field, at, length, upper]) => {
          const text = Array.from(String(p[field as keyof Persona] ?? p.name))
          const piece = text.slice(at % text.length, (at % text.length) + length).join('')
          return upper ? piece.toUpperCase() : piece
        }),
    },
    fc.string({ maxLength: 4 }),
    fc.constant(''),
  )

const personaQuery = () =>
  fc.record({
    // The last team has no personas: one run in five asks for it.
    team: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...mock.fixtures.teams.slice(0, -1).map((t) => t.id)) },
      fc.constant(mock.fixtures.teams.at(-1)!.id),
    ),
    intents: fc.option(
      fc.subarray(['benign', 'curious', 'adversarial', 'malicious', 'MALICIOUS', 'unknown'], { minLength: 1 }),
      { nil: null },
    ),
    isPreset: fc.option(fc.boolean(), { nil: null }),
    search: fc.option(searchTerm(), { nil: null }),
    limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
    start: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 0, max: 200 })),
  })

it(
  'pages through filtered personas: pages concatenate to the filtered set, total is its size, order is created_at descending then id',
  async () => {
    await fc.assert(
      fc.asyncProperty(personaQuery(), async (q) => {
        const limit = q.limit ?? 10
        const filters = [
          `team_id=${q.team}`,
          ...(q.intents ?? []).map((i) => `intents=${i}`),
          ...(q.isPreset === null ? [] : [`is_preset=${q.isPreset}`]),
          ...(q.search === null ? [] : [`search=${encodeURIComponent(q.search)}`]),
          ...(q.limit === null ? [] : [`limit=${q.limit}`]),
        ]
        const pages = await pageThrough<Persona>(
          (offset) => `/v1/personas/?${filters.join('&')}&offset=${offset}`,
          q.start,
          limit,
        )
        const want = expectedPersonas(q.team, q)
        const got = pages.flatMap((p) => p.results)
        expect(
          pages.every((p) => p.total === want.length),
          'total is the size of the filtered set, on every page',
        ).toBe(true)
        expect(
          pages.every((p) => p.results.length === Math.max(0, Math.min(limit, want.length - p.offset))),
          'full pages but the last, none past the end',
        ).toBe(true)
        expect(got.map((p) => p.id)).toEqual(want.slice(q.start).map((p) => p.id))
        expect(
          got.every(
            (p, i) =>
              i === 0 ||
              got[i - 1]!.created_at > p.created_at ||
              (got[i - 1]!.created_at === p.created_at && got[i - 1]!.id < p.id),
          ),
          'ordered',
        ).toBe(true)
      }),
      fuzzParameters(RUNS, 7_004),
    )
  },
  timeoutFor(RUNS, 100),
)

it(
  'pages through a policy’s rules: pages concatenate to all its rules, total is their count, order is created_at then rule_id',
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...mock.fixtures.policies.map((p) => p.id)),
        fc.option(fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1000 })), { nil: null }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 0, max: 300 })),
        async (policy, limitParam, start) => {
          const limit = limitParam ?? 100
          const pages = await pageThrough<Rule>(
            (offset) =>
              `/v1/policies/${policy}/rules?offset=${offset}${limitParam === null ? '' : `&limit=${limitParam}`}`,
            start,
            limit,
          )
          const want = rules
            .filter((r) => r.policy_id === policy)
            .sort((a, b) => a.created_at - b.created_at || (a.rule_id < b.rule_id ? -1 : 1))
          const got = pages.flatMap((p) => p.results)
          expect(pages.every((p) => p.total === want.length)).toBe(true)
          expect(pages.every((p) => p.results.length === Math.max(0, Math.min(limit, want.length - p.offset)))).toBe(
            true,
          )
          expect(got.map((r) => r.id)).toEqual(want.slice(start).map((r) => r.id))
          expect(
            got.every(
              (r, i) =>
                i === 0 ||
                got[i - 1]!.created_at < r.created_at ||
                (got[i - 1]!.created_at === r.created_at && got[i - 1]!.rule_id < r.rule_id),
            ),
            'ordered',
          ).toBe(true)
        },
      ),
      fuzzParameters(RUNS, 7_005),
    )
  },
  timeoutFor(RUNS, 100),
)
