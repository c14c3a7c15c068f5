import type { Fixtures } from '../../factories/fixtures.js'
import { checkJwtSecret } from '../settings.js'
import { DEVELOPMENT_JWT_SECRET, mintToken, type TokenClaims } from '../../model/auth/tokens.js'
import type { Builders, Creators } from '../../factories/build.js'
import { checkWorldOptions, worldOptionsOver, type WorldOptions } from '../../factories/world.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../../model/profile.js'
import type { World } from '../../model/world.js'
import type { Clock } from './clock.js'
import { MockInstance } from './instance.js'
import { namesNoSnapshot, SnapshotError } from './snapshots.js'
import { exportContract, type ContractFormat } from '../journal/contract-export.js'
import type { RecordedContract } from '../../verify/recording/format.js'
import type { PactFile } from '../../verify/recording/pact.js'
import type { OperationName } from '../../model/api/routes.js'
import type { OperationOverride } from '../overrides/types.js'
import { resetWithScenarios, selectScenarios } from '../scenarios/effects.js'
import { ScenarioRegistry, type Scenario } from '../scenarios/index.js'
import { BUILTIN_SCENARIOS } from '../scenarios/builtin.js'
import { rawDocument } from '../../fastapi/served/document.js'

/** What every runtime's entry is given: the world to build, the profile, the secret. */
export interface MockOptions extends WorldOptions {
  /** Profile settings (`decisions.md`). */
  profile?: ProfileOptions
  /** The secret tokens are signed and checked with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /**
   * Scenarios to start with (and to return to on `reset()`), applied in order: names, or one
   * comma-separated string (`'empty-team,slow'`). An unknown name fails, listing the known ones.
   */
  scenario?: string | readonly string[]
  /** Scenarios of your own (`defineScenario`), beside the built-in ones. */
  scenarios?: readonly Scenario[]
  /**
   * A team's own OpenAPI document (its `/openapi.json`, parsed): the operations of it the mock does not
   * implement are answered from it (docs/openapi.md).
   */
  openapi?: object
}

/**
 * The names of {@link MockOptions}, which every runtime's entry takes: each lists them beside its own to refuse any
 * other, and checks there that its list is complete.
 */
export const MOCK_OPTION_NAMES = [
  'seed',
  'personasPerTeam',
  'profile',
  'jwtSecret',
  'scenario',
  'scenarios',
  'openapi',
] as const satisfies ReadonlyArray<keyof MockOptions>

/**
 * The part of a running mock that is the same in every runtime (Node tests, the browser,
 * Playwright): its instance, profile and secret, the current world and fixtures, token
 * minting and reset. Each runtime adds how requests reach the handlers.
 */
export class MockHandle {
  readonly profile: Profile
  readonly jwtSecret: string

  constructor(
    readonly instance: MockInstance,
    private readonly options: MockOptions,
  ) {
    this.profile = resolveProfile(options.profile)
    this.jwtSecret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  }

  /** The current world (a new one after `reset()`): @msw/data collections to arrange or inspect. */
  get world(): World {
    return this.instance.world
  }

  /** Ids of the seeded records and ready tokens, for the current world. */
  get fixtures(): Fixtures {
    return this.instance.fixtures
  }

  /** Signs claims with the mock's secret; `iat` (and the default `exp`, a day later) from the mock's clock. */
  readonly mintToken = (claims: TokenClaims): Promise<string> =>
    mintToken(claims, this.jwtSecret, this.instance.clock.nowSeconds())

  /**
   * The mock's clock: new records' timestamps and token expiry. `set`, `freeze` take what
   * Playwright's `page.clock` takes (a Date, milliseconds, a date string). A reset sets it back to real time.
   * @example mock.clock.freeze('2026-03-01T09:00:00Z'); mock.clock.advance(3600)
   */
  get clock(): Clock {
    return this.instance.clock
  }

  /**
   * A valid record of each kind, not stored: defaults, a seeded id, timestamps from the clock.
   * @example const persona = mock.build.persona({ intent: 'adversarial' })
   */
  get build(): Builders {
    return this.instance.records.builders
  }

  /**
   * Stores a valid record of each kind in the current world: the API answers with it at once.
   * @throws RecordError naming each bad field
   * @example const team = await mock.create.team({ name: 'Empty team' })
   */
  get create(): Creators {
    return this.instance.records.creators
  }

  /**
   * Answers an operation with a typed override until `resetHandlers()`: a status and a body, an error shape
   * of the real server, or a function of the parsed request (after authentication and validation). Answered
   * on the wire as FastAPI answers; the last override of an operation wins.
   * @throws InvalidOverrideError for a status or body the operation cannot answer
   * @example mock.override('list_personas', { status: 200, body: { results: [], total: 0 } })
   * @example mock.override('list_policy_rules', { error: 'not_found' })
   * @example mock.override('list_personas', (req) => ({ body: { results: [], total: req.query.limit } }))
   */
  readonly override = <Op extends OperationName>(operation: Op, override: OperationOverride<Op>): void =>
    this.instance.overrides.set(operation, override)

  /**
   * Keeps the world as it is now under `name`, to come back to with {@link restore} (or, on a
   * standalone server, to start a session from).
   */
  readonly snapshot = async (name = 'default'): Promise<void> => void (await this.instance.snapshot(name))

  /**
   * The world becomes a snapshot's again (faults and the clock stay).
   * @throws SnapshotError naming the snapshots there are, when none has this name
   */
  readonly restore = (name = 'default'): Promise<void> =>
    this.instance.restoreSnapshot(name).catch((error: unknown) => {
      if (error instanceof SnapshotError && namesNoSnapshot(error))
        throw new SnapshotError(`${error.message}: take one with mock.snapshot(${JSON.stringify(name)}) first`)
      throw error
    })

  /**
   * Back to a freshly seeded world, with the starting scenarios; faults are cleared. The seed and size are the ones
   * the mock was created with unless given, as `POST /__mock/reset` does: a test that reseeds does not change the
   * world later tests' `afterEach(() => mock.reset())` gives them.
   */
  readonly reset = (options?: WorldOptions): Promise<void> =>
    resetWithScenarios(this.instance, this.startingWorld(options))

  /** The world a reset seeds: `given`'s seed and size, else the mock's own (from its options). */
  protected startingWorld(given: WorldOptions = {}): WorldOptions {
    return worldOptionsOver(given, checkWorldOptions(this.options))
  }

  /**
   * A freshly seeded world (the seed and size it was created with) with these scenarios applied in
   * order, as `PUT /__mock/scenario`; none: the plain seeded world. `reset()` returns to the starting ones.
   * @throws UnknownScenarioError naming the unknown ones and listing the known ones
   * @example await mock.useScenario('empty-team,slow')
   */
  readonly useScenario = async (names: string | readonly string[]): Promise<void> =>
    selectScenarios(this.instance, scenarioRegistry(this.options).resolve(names), checkWorldOptions(this.options))

  /**
   * The distinct API requests this mock answered so far and what it answered, as a recorded contract
   * (ids as references to fixtures, tokens as roles), to replay against a real server with
   * `agent-console-mock verify --replay`; `'pact'`: as a Pact v4 file verified against this world.
   */
  readonly contract: {
    (format?: 'contract'): Promise<RecordedContract>
    (format: 'pact'): Promise<PactFile>
  } = (format: ContractFormat = 'contract') =>
    exportContract(this.instance, this.profile, format, rawDocument(this.options.openapi)) as never

  /** The scenarios selected now, in the order applied. */
  get scenario(): readonly string[] {
    return this.instance.scenarios.names
  }
}

/** The scenarios a host knows: the built-in ones and the options' own. */
export const scenarioRegistry = (options: MockOptions): ScenarioRegistry =>
  new ScenarioRegistry(BUILTIN_SCENARIOS, options.scenarios ?? [])

/**
 * A seeded instance for these options, with their starting scenarios applied (the profile and the
 * scenario names are checked first, so a bad one fails fast).
 */
export async function seedInstance(options: MockOptions): Promise<MockInstance> {
  resolveProfile(options.profile)
  if (options.jwtSecret !== undefined) checkJwtSecret(options.jwtSecret)
  const scenarios = scenarioRegistry(options).resolve(options.scenario)
  const instance = await MockInstance.create({
    seed: options.seed,
    personasPerTeam: options.personasPerTeam,
    jwtSecret: options.jwtSecret,
  })
  instance.scenarios.atStart = scenarios
  if (scenarios.length > 0) await selectScenarios(instance, scenarios, instance.worldOptions)
  return instance
}
