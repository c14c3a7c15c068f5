import { MAX_PERSONAS_PER_TEAM } from '../../factories/world.js'
import { defineScenario, type Scenario } from './index.js'

/** The fixture tokens' `exp` (2100-01-01T00:00:00Z, factories/fixtures.ts): the expired-session clock is set past it. */
const FIXTURE_TOKENS_EXPIRE = 4_102_444_800
/** The bulk add's bound (`values: List[DemographicValueCreate] = Field(max_length=1000)`, the spec's decisions). */
const BULK_BOUND = 1000
/** Rules of the first policy in `policy-1000-rules`: the rules paging's largest page. */
const POLICY_RULES = 1000

/**
 * The scenarios every mock knows. Each arranges one state a UI screen must handle, and they
 * compose: `empty-team,slow` is an empty team answered slowly.
 */
export const BUILTIN_SCENARIOS: readonly Scenario[] = [
  defineScenario({
    name: 'empty-team',
    description: 'the first team has no personas (the token teams[0] reads an empty list)',
    async apply({ world, fixtures }) {
      const team = fixtures.teams[0]?.id
      if (team) await world.exclusive(async () => world.personas.deleteMany((query) => query.where({ team_id: team })))
    },
  }),
  defineScenario({
    name: 'huge-team',
    description: `${MAX_PERSONAS_PER_TEAM.toLocaleString('en')} personas in each team but the last (a seeded world of that size)`,
    async apply({ reset }) {
      await reset({ personasPerTeam: MAX_PERSONAS_PER_TEAM })
    },
  }),
  defineScenario({
    name: 'policy-1000-rules',
    description: `the first policy holds ${POLICY_RULES} rules (the most one page of rules holds)`,
    async apply({ world, fixtures, records }) {
      const policy = fixtures.policies[0]?.id
      if (!policy) return
      const missing = POLICY_RULES - (world.rulesByPolicy().get(policy)?.length ?? 0)
      if (missing > 0)
        await records.create(
          'rules',
          Array.from({ length: missing }, () => ({ policy_id: policy })),
        )
    },
  }),
  defineScenario({
    name: 'full-dimension',
    description: `the first dimension holds ${BULK_BOUND} values, the bulk add's bound: bulk adds to it are refused with its 422`,
    async apply({ world, fixtures, records, override }) {
      const dimension = fixtures.dimensions[0]?.id
      if (!dimension) return
      const valuesOf = () => world.values.findMany((query) => query.where({ dimension_id: dimension }))
      const names = new Set(valuesOf().map((value) => value.value))
      const added: Array<{ dimension_id: string; value: string }> = []
      for (let n = 1; names.size + added.length < BULK_BOUND; n++)
        if (!names.has(`value-${n}`)) added.push({ dimension_id: dimension, value: `value-${n}` })
      if (added.length > 0) await records.create('values', added)
      // The bound is the API's own (pydantic's too_long at ["body","values"]), counted over the room the
      // dimension has left: any value is one too many. Auth, 404 and the other checks come first, as always.
      override('bulk_add_values', ({ params, profile, world, answer }) => {
        if (params.dimension_id !== dimension) return answer()
        const stored = world.values.findMany((query) => query.where({ dimension_id: dimension })).length
        const room = Math.max(0, BULK_BOUND - stored)
        const bound = profile.bounds.bulkMaxItems
        return answer({
          ...profile,
          bounds: { ...profile.bounds, bulkMaxItems: bound === null ? room : Math.min(room, bound) },
        })
      })
    },
  }),
  defineScenario({
    name: 'forbidden-user',
    description:
      'every token lacks permissions: the API answers 403 (Missing permission, Super admin permission required)',
    apply({ claims }) {
      claims((user) => ({ ...user, permissions: [], is_super_admin: false }))
    },
  }),
  defineScenario({
    name: 'expired-session',
    description:
      "the clock is past the fixture tokens' exp (2100-01-01): they answer 401; tokens minted now still work",
    apply({ clock }) {
      clock.set((FIXTURE_TOKENS_EXPIRE + 1) * 1000)
    },
  }),
  defineScenario({
    name: 'slow',
    description: 'every API answer takes 800 to 1500 ms',
    apply({ faults }) {
      faults({ latency: { min: 800, max: 1500 } })
    },
  }),
  defineScenario({
    name: 'flaky',
    description: '5% of API answers are 503 Service Unavailable',
    apply({ faults }) {
      faults({ error: { status: 503, rate: 0.05 } })
    },
  }),
  defineScenario({
    name: 'offline',
    description: 'every API request has its connection dropped, without an answer',
    apply({ faults }) {
      faults({ drop: { rate: 1 } })
    },
  }),
]
