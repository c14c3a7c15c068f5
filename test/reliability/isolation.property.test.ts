import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { readAnswer } from '../support/answer.js'
import { fuzzParameters, tally, timeoutFor } from './support/fuzz.js'

const RUNS = 400

let mock: MockServer
/** Which team owns each persona, rule and policy id of the world. */
const owner = new Map<string, string>()

beforeAll(async () => {
  mock = await createMockServer({ seed: 33, personasPerTeam: 25 })
  const policies = new Map(mock.world.policies.all().map((policy) => [policy.id, policy.team_id]))
  for (const persona of mock.world.personas.all()) owner.set(persona.id, persona.team_id)
  for (const rule of mock.world.rules.all()) owner.set(rule.id, policies.get(rule.policy_id)!)
  for (const [id, team] of policies) owner.set(id, team)
})
afterAll(() => mock.close())

const teams = () => mock.fixtures.teams.map((team) => team.id)

/** A team id as a client may spell it, with the spelling the mock must compare (pydantic's canonical form). */
const teamSpelling = () =>
  fc
    .tuple(fc.constantFrom(...teams()), fc.constantFrom('as is', 'upper', 'braces', 'urn', 'hex'))
    .map(([id, spelling]) => {
      const spelled = {
        'as is': id,
        upper: id.toUpperCase(),
        braces: `{${id}}`,
        urn: `urn:uuid:${id}`,
        hex: id.replaceAll('-', ''),
      }[spelling]
      return { spelled, canonical: id }
    })

/** Claims of every shape: scoped to a team or not, in another spelling, with stray permissions, some super admins, some trying `__proto__`. */
const claims = () =>
  fc.record({
    sub: fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 12 })),
    team_id: fc.oneof(
      { arbitrary: fc.constantFrom(...teams()), weight: 6 },
      fc.constantFrom(...teams()).map((id) => id.toUpperCase()),
      fc.uuid(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(''),
    ),
    permissions: fc.oneof(
      { arbitrary: fc.constant(['persona:read', 'policy:read']), weight: 3 },
      fc.subarray(['persona:read', 'policy:read', 'persona:write', 'PERSONA:READ', 'policy:*', '*']),
    ),
    is_super_admin: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, fc.constant(true)),
    smuggled: fc.constantFrom('none', '__proto__', 'constructor'),
  })

const request = () =>
  fc.oneof(
    fc.record({
      kind: fc.constant('personas' as const),
      team: fc.option(
        fc.oneof(
          { arbitrary: teamSpelling(), weight: 4 },
          fc.uuid().map((id) => ({ spelled: id, canonical: id })),
        ),
        { nil: undefined, freq: 2 },
      ),
      intents: fc.subarray(['benign', 'curious', 'adversarial', 'malicious']),
      limit: fc.integer({ min: 1, max: 100 }),
      offset: fc.integer({ min: 0, max: 60 }),
    }),
    fc.record({
      kind: fc.constant('rules' as const),
      policy: fc.oneof(
        { arbitrary: fc.constantFrom(...mock.fixtures.policies.map((p) => p.id)), weight: 6 },
        fc.uuid(),
      ),
      limit: fc.integer({ min: 1, max: 1000 }),
      offset: fc.integer({ min: 0, max: 300 }),
    }),
  )

interface DrawnClaims {
  sub: string
  team_id: string | null | undefined
  permissions: readonly string[]
  is_super_admin: boolean
  smuggled: 'none' | '__proto__' | 'constructor'
}

async function tokenFor(c: DrawnClaims) {
  const { smuggled, ...plain } = c
  // A computed key makes an own `__proto__` property, which JSON.stringify then signs.
  const extra =
    smuggled === 'none'
      ? {}
      : { [smuggled]: { is_super_admin: true, team_id: teams()[1], permissions: ['persona:read', 'policy:read'] } }
  return mock.mintToken({ ...plain, team_id: plain.team_id, ...extra } as never)
}

it(
  'never answers a record of a team the token is not scoped to, super admins excepted',
  async () => {
    const outcomes = tally('isolation: answers by operation, role and status')
    await fc.assert(
      fc.asyncProperty(claims(), request(), async (c, r) => {
        const token = await tokenFor(c)
        const path =
          r.kind === 'personas'
            ? `/v1/personas/?limit=${r.limit}&offset=${r.offset}${r.team ? `&team_id=${encodeURIComponent(r.team.spelled)}` : ''}${r.intents.map((i) => `&intents=${i}`).join('')}`
            : `/v1/policies/${r.policy}/rules?limit=${r.limit}&offset=${r.offset}`
        const answer = await readAnswer(await fetch(mock.url(path), { headers: { authorization: `Bearer ${token}` } }))
        const scope = c.is_super_admin ? undefined : c.team_id
        const foreign = [...answer.text.matchAll(/"id":"([0-9a-f-]{36})"/g)]
          .map((m) => m[1]!)
          .filter((id) => (scope === undefined ? false : owner.get(id) !== scope))
        expect(foreign, `${path} answered ${answer.status} with records of other teams`).toEqual([])
        outcomes.add(`${r.kind} ${c.is_super_admin ? 'super admin' : 'scoped'} ${answer.status}`)
        if (answer.status !== 200) return
        const records = answer.json.results as Array<{ team_id?: string; policy_id?: string }>
        if (r.kind === 'personas') {
          const team = r.team?.canonical ?? c.team_id
          expect(c.is_super_admin || team === c.team_id, `${path}: a 200 for another team`).toBe(true)
          expect(records.every((p) => p.team_id === team)).toBe(true)
        } else {
          expect(
            c.is_super_admin || owner.get(r.policy) === c.team_id,
            `${path}: a 200 for another team's policy`,
          ).toBe(true)
          expect(records.every((rule) => rule.policy_id === r.policy)).toBe(true)
        }
      }),
      fuzzParameters(RUNS, 7_003),
    )
    outcomes.print()
  },
  timeoutFor(RUNS, 30),
)

it('gives a smuggled __proto__ claim no power: the token is what its own claims say', async () => {
  const token = await tokenFor({
    sub: 'sneaky',
    team_id: teams()[0],
    permissions: [],
    is_super_admin: false,
    smuggled: '__proto__',
  })
  const other = await fetch(mock.url(`/v1/personas/?team_id=${teams()[1]}`), {
    headers: { authorization: `Bearer ${token}` },
  })
  expect([other.status, await other.text()]).toEqual([403, '{"detail":"Missing permission: persona:read"}'])
  const bulk = await fetch(mock.url(`/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{"values":[]}',
  })
  expect(bulk.status).toBe(403)
  expect(({} as Record<string, unknown>).is_super_admin).toBeUndefined()
})
