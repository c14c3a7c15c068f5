import { World } from '../model/world.js'
import { buildDimensions } from './dimension.js'
import { buildTeamPersonas } from './persona.js'
import { buildPolicies } from './policy.js'
import { buildTeams } from './team.js'

export const DEFAULT_SEED = 1
export const DEFAULT_PERSONAS_PER_TEAM = 60
export const MAX_PERSONAS_PER_TEAM = 100_000

export interface WorldOptions {
  /** Any integer; the same seed gives the same world in every runtime and process. @default 1 */
  seed?: number
  /** Personas in each team but the last, which has none. 0 to 100,000. @default 60 */
  personasPerTeam?: number
}

/**
 * Builds a freshly seeded world: 3 teams (the last without personas), their personas, 3
 * demographic dimensions with values, and 4 policies holding from 1 to 260 rules.
 * @example const world = await createWorld({ seed: 7, personasPerTeam: 1000 })
 */
export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const { seed, personasPerTeam } = checkWorldOptions(options)
  const teams = buildTeams(seed)
  const { dimensions, values } = buildDimensions(seed)
  const { policies, rules } = buildPolicies(seed, teams)
  const world = await new World(seed).load({ teams, personas: [], dimensions, values, policies, rules })
  // One team at a time, so that only one team's unvalidated personas are ever held.
  for (const [index, team] of teams.slice(0, -1).entries()) {
    await world.personas.createAll(buildTeamPersonas(seed, team, index, personasPerTeam))
  }
  return world
}

export function checkWorldOptions(options: WorldOptions) {
  const seed = options.seed ?? DEFAULT_SEED
  const personasPerTeam = options.personasPerTeam ?? DEFAULT_PERSONAS_PER_TEAM
  if (!Number.isSafeInteger(seed)) throw new RangeError(`The seed must be an integer, got ${String(seed)}.`)
  if (!Number.isInteger(personasPerTeam) || personasPerTeam < 0 || personasPerTeam > MAX_PERSONAS_PER_TEAM) {
    throw new RangeError(
      `personasPerTeam must be an integer from 0 to ${MAX_PERSONAS_PER_TEAM}, got ${String(personasPerTeam)}.`,
    )
  }
  return { seed, personasPerTeam }
}
