import { buildFixtures, type Fixtures } from '../auth/fixtures.js'
import { DEVELOPMENT_JWT_SECRET } from '../auth/tokens.js'
import { checkWorldOptions, createWorld, type WorldOptions } from '../factories/world.js'
import { World } from '../model/world.js'
import { Faults } from './faults.js'
import { Journal } from './journal.js'
import { parseState, serializeState } from './state.js'

export interface InstanceOptions extends WorldOptions {
  /** The secret fixture tokens are signed with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /** Entries the request journal keeps. @default 1000 */
  journalSize?: number
}

/**
 * One mock backend: a world, the fixtures for it, its faults and its request journal.
 * A reset or an import builds the new world completely before swapping it in, so a
 * request never sees a half-seeded world (it keeps the world it started with).
 */
export class MockInstance {
  readonly faults = new Faults()
  readonly journal: Journal
  #world: World
  #fixtures: Fixtures
  #options: Required<WorldOptions>
  #generation = 0

  private constructor(
    world: World,
    fixtures: Fixtures,
    options: Required<WorldOptions>,
    private readonly settings: InstanceOptions,
  ) {
    this.#world = world
    this.#fixtures = fixtures
    this.#options = options
    this.journal = new Journal(settings.journalSize)
  }

  /** A freshly seeded instance. */
  static async create(options: InstanceOptions = {}): Promise<MockInstance> {
    const worldOptions = checkWorldOptions(options)
    const world = await createWorld(worldOptions)
    return new MockInstance(
      world,
      await buildFixtures(world, options.jwtSecret ?? DEVELOPMENT_JWT_SECRET),
      worldOptions,
      options,
    )
  }

  get world(): World {
    return this.#world
  }

  get fixtures(): Fixtures {
    return this.#fixtures
  }

  /** The seed and size the current world was built with. */
  get worldOptions(): Required<WorldOptions> {
    return this.#options
  }

  /** Changes whenever the state does (a write, a reset, an import): what persistence watches. */
  get stateVersion(): string {
    const { teams, personas, dimensions, values, policies, rules } = this.#world
    return [
      this.#generation,
      teams.version,
      personas.version,
      dimensions.version,
      values.version,
      policies.version,
      rules.version,
    ].join('.')
  }

  /** Back to a freshly seeded world (this seed and size unless given); faults are cleared. */
  async reset(options: WorldOptions = {}): Promise<void> {
    const worldOptions = checkWorldOptions({
      seed: options.seed ?? this.#options.seed,
      personasPerTeam: options.personasPerTeam ?? this.#options.personasPerTeam,
    })
    await this.#swap(await createWorld(worldOptions), worldOptions)
    this.faults.clear()
  }

  /** The whole world as a state file's JSON. */
  exportState(): string {
    return serializeState({ ...this.#options, contents: this.#world.contents() })
  }

  /**
   * Replaces the world with the one a state file holds.
   * @throws StateError when the state is not valid; the world is then unchanged.
   */
  async importState(text: string): Promise<void> {
    const state = parseState(text)
    const world = await new World(state.seed).load(state.contents)
    await this.#swap(world, { seed: state.seed, personasPerTeam: state.personasPerTeam })
  }

  async #swap(world: World, options: Required<WorldOptions>): Promise<void> {
    const fixtures = await buildFixtures(world, this.settings.jwtSecret ?? DEVELOPMENT_JWT_SECRET)
    this.#world = world
    this.#fixtures = fixtures
    this.#options = options
    this.#generation++
  }
}
