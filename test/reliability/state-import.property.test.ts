import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, loggedErrors, startTestServer } from '../support/server.js'
import { fuzzParameters, tally, timeoutFor } from './support/fuzz.js'

// Mutated states thrown at PUT /__mock/state: a real export with numbers out of range, wrong types, fields
// removed or added, records duplicated or pointing nowhere. Every state the API accepts must be one the
// mock works with; every state it refuses must leave the world exactly as it was.

const RUNS = 100
let running: RunningServer
let call: ReturnType<typeof http>
let base: any

beforeAll(async () => {
  running = await startTestServer({ seed: 43, personasPerTeam: 3, sessionLimit: 2 })
  call = http(running)
  // A real export, with 3 rules per policy instead of up to 260: a case costs milliseconds, not a tenth of a second.
  base = (await call('/__mock/state')).json
  const kept = new Map<string, number>()
  base.world.rules = base.world.rules.filter(
    (rule: Json) => kept.set(rule.policy_id, (kept.get(rule.policy_id) ?? 0) + 1).get(rule.policy_id)! <= 3,
  )
  expect((await call('/__mock/state', { method: 'PUT', body: JSON.stringify(base) })).status).toBe(200)
})
afterAll(() => running.close())

type Json = any
const NAN = '__not_a_number__'
const COLLECTIONS = ['teams', 'personas', 'dimensions', 'values', 'policies', 'rules'] as const
const ODD = [null, 'x', '3', 1, -1, 1.5, 2 ** 53, 1e12, 100_001, true, [], {}, NAN]

/** A collection of the state, or an empty list once an earlier mutation took it away. */
const listOf = (state: Json, name: string): Json[] => (Array.isArray(state.world?.[name]) ? state.world[name] : [])
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
/** The objects a mutation may touch: the state, its world, and records of every collection. */
function objectsOf(state: Json, pick: number): Json {
  const records = COLLECTIONS.flatMap((name) => listOf(state, name)).filter(
    (record, i) => isObject(record) && i % 7 === 0,
  )
  const objects = [state, ...(isObject(state.world) ? [state.world] : []), ...records]
  return objects[pick % objects.length]
}
const keyOf = (object: Json, pick: number) => {
  const keys = Object.keys(object)
  return keys.length > 0 ? keys[pick % keys.length]! : 'none'
}
const collectionOf = (state: Json, pick: number): Json[] => listOf(state, COLLECTIONS[pick % COLLECTIONS.length]!)
const idsOf = (state: Json, name: (typeof COLLECTIONS)[number]) => listOf(state, name).map((r) => r?.id)
const nth = (list: Json[], pick: number) => list[pick % Math.max(1, list.length)]

type Mutation = [name: string, apply: (state: Json) => void]
const change = (name: string, apply: (state: Json) => void): Mutation => [name, apply]
const PARENTS = [
  ['personas', 'team_id', 'teams'],
  ['policies', 'team_id', 'teams'],
  ['values', 'dimension_id', 'dimensions'],
  ['rules', 'policy_id', 'policies'],
] as const
const METADATA: Json[] = [[], 1.5, 'x', { a: NAN }, { a: [1, { b: NAN }] }, { a: 1 }]

/** One change to a state: its name, and what it does to a deep copy. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...ODD)).map(([o, k, value]) =>
    change('a field set to another type or an odd number', (s) => {
      objectsOf(s, o)[keyOf(objectsOf(s, o), k)] = value
    }),
  ),
  fc
    .tuple(fc.constantFrom('seed', 'personasPerTeam'), fc.constantFrom(-1, 0, 5, 1.5, 100_001, 1e12, 2 ** 53))
    .map(([key, value]) => change(`${key} set to a number`, (s) => void (s[key] = value))),
  fc
    .tuple(fc.nat(), fc.nat())
    .map(([o, k]) => change('a field removed', (s) => void delete objectsOf(s, o)[keyOf(objectsOf(s, o), k)])),
  fc
    .tuple(fc.nat(), fc.constantFrom(...ODD))
    .map(([o, value]) => change('a field added', (s) => void (objectsOf(s, o).extra = value))),
  fc.tuple(fc.nat(), fc.nat()).map(([c, r]) =>
    change('a record repeated', (s) => {
      const list = collectionOf(s, c)
      if (list.length > 0) list.push(structuredClone(nth(list, r)))
    }),
  ),
  fc
    .tuple(fc.nat(), fc.nat())
    .map(([c, r]) =>
      change('a record removed', (s) => void collectionOf(s, c).splice(r % Math.max(1, collectionOf(s, c).length), 1)),
    ),
  fc.tuple(fc.nat(), fc.nat()).map(([r, t]) =>
    change('a record moved to another parent, known or not', (s) => {
      const [name, key, parent] = PARENTS[t % PARENTS.length]!
      const record = nth(listOf(s, name), r)
      const parents = [...idsOf(s, parent), randomUUID()]
      if (isObject(record)) record[key] = parents[r % parents.length]
    }),
  ),
  fc.nat().map((r) =>
    change('a value copied under a new id', (s) => {
      const value = nth(listOf(s, 'values'), r)
      if (isObject(value)) s.world.values.push({ ...value, id: randomUUID() })
    }),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(...METADATA)).map(([r, metadata]) =>
    change('value metadata replaced', (s) => {
      const value = nth(listOf(s, 'values'), r)
      if (isObject(value)) value.value_metadata = structuredClone(metadata)
    }),
  ),
)

it(
  'takes only states the mock then works with, and refuses the others leaving the world as it was',
  async () => {
    const outcomes = tally('PUT /__mock/state of mutated states')
    let session = 0
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const state = structuredClone(base)
        for (const [, mutate] of mutations) mutate(state)
        const before = await call('/__mock/state')
        const put = await call('/__mock/state', {
          method: 'PUT',
          body: JSON.stringify(state).replaceAll(`"${NAN}"`, 'NaN'),
        })
        outcomes.add(`${put.status} ${mutations.map(([name]) => name).join(', ')}`)
        if (put.status === 400) {
          expect(put.json.detail).toMatch(/^Invalid state: /)
          expect((await call('/__mock/state')).text).toBe(before.text)
          return
        }
        expect(put.status, put.text).toBe(200)
        const { tokens, teams, policies } = put.json
        const team = teams[0]?.id ?? randomUUID()
        expect((await call(`/v1/personas/?team_id=${team}`, { token: tokens.super_admin })).status).toBe(200)
        if (policies[0])
          expect((await call(`/v1/policies/${policies[0].id}/rules`, { token: tokens.super_admin })).status).toBe(200)
        const exported = await call('/__mock/state')
        expect((await call('/__mock/state', { method: 'PUT', body: exported.text })).status).toBe(200)
        const headers = { 'x-mock-session': `session-${session++}` }
        expect((await call('/__mock/health', { headers })).status).toBe(200)
        expect((await call('/__mock/fixtures', { headers })).status).toBe(200)
        expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
        expect((await call('/__mock/state', { method: 'PUT', body: JSON.stringify(base) })).status).toBe(200)
      }),
      fuzzParameters(RUNS, 4_314),
    )
    outcomes.print()
    expect(loggedErrors).toEqual([])
  },
  timeoutFor(RUNS, 100),
)
