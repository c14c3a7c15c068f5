import type { Persona } from '../model/schemas.js'
import { TimeSlice } from '../model/time-slice.js'
import { World } from '../model/world.js'
import { MAX_PERSONAS_PER_TEAM } from '../model/world-bounds.js'
import { DEFAULT_PERSONAS_PER_TEAM, DEFAULT_SEED } from './world-defaults.js'
import { buildDimensions } from './dimension.js'
import { buildTeamPersonas } from './persona.js'
import { buildPolicies } from './policy.js'
import { buildTeams } from './team.js'

export { DEFAULT_PERSONAS_PER_TEAM, DEFAULT_SEED, MAX_PERSONAS_PER_TEAM }

export interface WorldOptions {
  /** Any integer; the same seed gives the same world in every runtime and process. @default 1 */
  seed?: number
  /** Personas in each team but the last, which has none. 0 to 100,000. @default 60 */
  personasPerTeam?: number
}

/**
 * Builds a freshly seeded world: 3 teams (the last without personas), their personas, 3
 * demographic dimensions with values, and 4 policies holding from 1 to 260 rules. Large worlds are
 * built in slices of a few milliseconds, giving the event loop back in between (model/time-slice.ts).
 * @example const world = await createWorld({ seed: 7, personasPerTeam: 1000 })
 */
export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const { seed, personasPerTeam } = checkWorldOptions(options)
  const teams = buildTeams(seed)
  const { dimensions, values } = buildDimensions(seed)
  const { policies, rules } = buildPolicies(seed, teams)
  const world = await new World(seed).load({ teams, personas: [], dimensions, values, policies, rules })
  // A slice of personas at a time: drawing a large team takes long enough to hold up other requests, so the
  // event loop is given back between slices (and storing them yields too), and only one slice of unvalidated
  // personas is held.
  const slice = new TimeSlice()
  for (const [index, team] of teams.slice(0, -1).entries()) {
    const personas = buildTeamPersonas(seed, team, index, personasPerTeam)
    for (let drawn = take(personas, slice); drawn.length > 0; drawn = take(personas, slice)) {
      await world.personas.createAll(drawn)
      await slice.yieldIfSpent()
    }
  }
  return world
}

/** The next personas of a team, until the slice is spent or at most {@link SLICE_PERSONAS}. */
function take(personas: Iterator<Persona>, slice: TimeSlice): Persona[] {
  const drawn: Persona[] = []
  // At least one: an empty slice means the team is done.
  while (drawn.length === 0 || (drawn.length < SLICE_PERSONAS && !slice.due())) {
    const next = personas.next()
    if (next.done) break
    drawn.push(next.value)
  }
  return drawn
}

/** Personas stored by one `createAll` at most: about what one time slice draws, so that storing them is short too. */
const SLICE_PERSONAS = 2_000

/** `given`'s seed and size, each one left out taken from `base` (a reset's options over the world's). */
export const worldOptionsOver = (given: WorldOptions, base: WorldOptions): WorldOptions => ({
  seed: given.seed ?? base.seed,
  personasPerTeam: given.personasPerTeam ?? base.personasPerTeam,
})

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
