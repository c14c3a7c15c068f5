import type { Claims } from '../../model/auth/claims.js'
import type { Fixtures } from '../../factories/fixtures.js'
import type { OperationName } from '../../model/api/routes.js'
import type { Builders, Creators, RecordFactory } from '../../factories/build.js'
import type { WorldOptions } from '../../factories/world.js'
import type { Profile, ProfileOptions } from '../../model/profile.js'
import type { World } from '../../model/world.js'
import type { Clock } from '../instance/clock.js'
import type { FaultsConfig } from '../instance/faults.js'

/** The request header that selects scenarios for one request: `X-Mock-Scenario: empty-team,slow`. */
export const SCENARIO_HEADER = 'x-mock-scenario'

/** What an operation's override is given: the request, the world it works on, and the API's own answer. */
export interface ScenarioOverrideContext {
  request: Request
  /** Path parameters as the route matched them (percent-decoded, not validated). */
  params: Record<string, string>
  world: World
  fixtures: Fixtures
  /** The profile the request is answered with (the scenarios' settings merged). */
  profile: Profile
  /**
   * The API's own answer to this request, optionally with other profile settings (auth, validation, the write):
   * merged onto the request's profile, as a scenario's `profile(...)` merges them.
   */
  answer(profile?: ProfileOptions): Promise<Response>
}

/** Answers an operation in place of the API; `answer()` of its context hands the request back to the API. */
export type ScenarioOverride = (context: ScenarioOverrideContext) => Response | Promise<Response>

/**
 * What a scenario's `apply` is given: the world it arranges (a session's, or a fork made for one
 * request), the factories over it, its faults, clock, profile settings and operation overrides.
 */
export interface ScenarioContext {
  /** The world (a new one after `reset`): @msw/data collections, to read or write. */
  readonly world: World
  /** Ids and tokens of the seeded world. */
  readonly fixtures: Fixtures
  /** `create.persona(overrides)` and the like: stores a valid record. */
  readonly create: Creators
  /** `build.persona(overrides)` and the like: a valid record, not stored. */
  readonly build: Builders
  /** The factories' batch form: `records.create('rules', [{...}, {...}])`, `records.delete('personas', id)`. */
  readonly records: Pick<RecordFactory, 'build' | 'create' | 'delete'>
  /** The world's clock. */
  readonly clock: Clock
  /** Adds faults: the fields given replace those set before, operation by operation (`PUT /__mock/faults`'s body). */
  faults(config: FaultsConfig): void
  /** Adds profile settings (`bounds`, `rulesPaging` and `errorTexts` merged field by field). */
  profile(settings: ProfileOptions): void
  /** Answers an operation (`list_personas`, `bulk_add_values`, `list_policy_rules`) with `override`. */
  override(operation: OperationName, override: ScenarioOverride): void
  /** Changes the claims of every valid token as the API sees them (e.g. takes its permissions away). */
  claims(transform: (claims: Claims) => Claims): void
  /** A freshly seeded world of this seed and size in place of the current one (faults and clock are kept). */
  reset(options?: WorldOptions): Promise<void>
}

/** A named state of the mock: data, faults, profile settings and overrides, arranged by `apply`. */
export interface Scenario {
  /** Letters, digits, `.`, `_` and `-`: what `X-Mock-Scenario`, `--scenario` and `?scenario=` name. */
  name: string
  /** One line, for `GET /__mock/scenarios`. */
  description: string
  apply(context: ScenarioContext): void | Promise<void>
}

const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * Defines a scenario, checking its name. Scenarios compose: several selected together apply in
 * the order named, each on what the ones before arranged.
 * @example
 * export const scenarios = [
 *   defineScenario({
 *     name: 'one-preset',
 *     description: 'the first team has a single persona, a preset',
 *     async apply({ world, fixtures, records, create }) {
 *       const team = fixtures.teams[0]!.id
 *       for (const persona of world.personas.findMany((q) => q.where({ team_id: team })))
 *         await records.delete('personas', persona.id)
 *       await create.persona({ team_id: team, is_preset: true })
 *     },
 *   }),
 * ]
 */
export function defineScenario(scenario: Scenario): Scenario {
  if (!SCENARIO_NAME.test(scenario?.name ?? '')) {
    throw new TypeError(
      `Invalid scenario name ${JSON.stringify(scenario?.name)}: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    )
  }
  if (typeof scenario.apply !== 'function') throw new TypeError(`Scenario "${scenario.name}" has no apply function.`)
  return { name: scenario.name, description: String(scenario.description ?? ''), apply: scenario.apply }
}

/** A name no scenario has; `known` lists those there are. */
export class UnknownScenarioError extends Error {
  override name = 'UnknownScenarioError'
  constructor(
    readonly unknown: readonly string[],
    readonly known: readonly string[],
  ) {
    super(
      `Unknown scenario${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => JSON.stringify(name)).join(', ')}; known: ${known.join(', ')}`,
    )
  }
}

/** The scenarios a mock knows: the built-in ones, then a user's own (which may replace a built-in of their name). */
export class ScenarioRegistry {
  readonly #scenarios = new Map<string, Scenario>()

  constructor(...lists: ReadonlyArray<readonly Scenario[]>) {
    for (const scenario of lists.flat()) this.#scenarios.set(scenario.name, defineScenario(scenario))
  }

  /** Every scenario, in the order defined. */
  list(): Scenario[] {
    return [...this.#scenarios.values()]
  }

  /**
   * The scenarios named, in order: an array of names, or one string of comma-separated names
   * (spaces ignored, empty names dropped, as `X-Mock-Scenario` and `?scenario=` carry them).
   * @throws UnknownScenarioError naming every unknown name and listing the known ones
   */
  resolve(names: string | readonly string[] | undefined): Scenario[] {
    const wanted = parseScenarioNames(names)
    const unknown = wanted.filter((name) => !this.#scenarios.has(name))
    if (unknown.length > 0) throw new UnknownScenarioError(unknown, [...this.#scenarios.keys()])
    return wanted.map((name) => this.#scenarios.get(name) as Scenario)
  }
}

/** Names from a comma-separated string or a list of them (each item may hold commas too). */
export function parseScenarioNames(names: string | readonly string[] | undefined): string[] {
  const list = typeof names === 'string' ? [names] : (names ?? [])
  return list.flatMap((item) =>
    String(item)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  )
}
