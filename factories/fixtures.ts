import { seededFaker, REFERENCE_EPOCH } from './random.js'
import type { World } from '../model/world.js'
import { Permission } from '../model/auth/claims.js'
import { mintToken } from '../model/auth/tokens.js'

/** 2100-01-01: fixture tokens do not expire, and so are the same in every run of a seed. */
const FAR_FUTURE = 4_102_444_800

/** Ready tokens for the roles tests need; all but `super_admin` are scoped to `teams[0]`. */
export interface FixtureTokens {
  /** `is_super_admin`, no `team_id` claim. */
  super_admin: string
  /** `persona:read` and `policy:read`. */
  team_reader: string
  /** `persona:read` only. */
  persona_reader: string
  /** No permission at all. */
  no_permissions: string
  /** A team reader whose token expired. */
  expired: string
}

/** What a test needs to know about a seeded world: ids to ask for and tokens to ask with. */
export interface Fixtures {
  seed: number
  teams: Array<{ id: string; name: string }>
  dimensions: Array<{ id: string; name: string }>
  policies: Array<{ id: string; team_id: string; name: string }>
  tokens: FixtureTokens
}

/**
 * The fixtures of a world. Tokens are deterministic (fixed `iat` and `exp`), so the same
 * seed and secret give the same tokens in every runtime and process.
 */
export async function buildFixtures(world: World, secret: string): Promise<Fixtures> {
  const teams = world.teams.all().map(({ id, name }) => ({ id, name }))
  const team = teams[0]?.id
  const faker = seededFaker(world.seed, 5)
  const [admin, reader, personaReader, nobody] = Array.from({ length: 4 }, () => faker.string.uuid())
  const readers = [Permission.personaRead, Permission.policyRead]
  const sign = (claims: Record<string, unknown>, exp = FAR_FUTURE) =>
    mintToken({ sub: '', ...claims, iat: REFERENCE_EPOCH, exp }, secret)
  return {
    seed: world.seed,
    teams,
    dimensions: world.dimensions.all().map(({ id, name }) => ({ id, name })),
    policies: world.policies.all().map(({ id, team_id, name }) => ({ id, team_id, name })),
    tokens: {
      super_admin: await sign({ sub: admin, permissions: [], is_super_admin: true }),
      team_reader: await sign({ sub: reader, team_id: team, permissions: readers, is_super_admin: false }),
      persona_reader: await sign({
        sub: personaReader,
        team_id: team,
        permissions: [Permission.personaRead],
        is_super_admin: false,
      }),
      no_permissions: await sign({ sub: nobody, team_id: team, permissions: [], is_super_admin: false }),
      expired: await sign(
        { sub: reader, team_id: team, permissions: readers, is_super_admin: false },
        REFERENCE_EPOCH + 3_600,
      ),
    },
  }
}
