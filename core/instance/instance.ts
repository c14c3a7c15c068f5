import { buildFixtures, type Fixtures } from '../../factories/fixtures.js'
import { DEVELOPMENT_JWT_SECRET } from '../../model/auth/tokens.js'
import { checkWorldOptions, worldOptionsOver, type WorldOptions } from '../../factories/world.js'
import { RecordFactory } from '../../factories/build.js'
import { World } from '../../model/world.js'
import { NO_DOCUMENTED, type DocumentedContents } from '../../model/documented.js'
import { seededBase, type WorldOrigin } from './bases.js'
import { Clock, type ClockSetting, REAL_TIME } from './clock.js'
import { Faults, type FaultsConfig } from './faults.js'
import { Journal } from '../journal/journal.js'
import { ContractRecorder } from '../journal/recorder.js'
import { OperationOverrides } from '../overrides/index.js'
import { type ScenarioEffects, ScenarioSelection } from '../scenarios/selection.js'
import { documentedBytes, snapshotBytes, worldBytes, type MemoryBudget } from './memory-budget.js'
import { checkName, type Snapshot, Snapshots } from './snapshots.js'
import { originOf, serializeState, StateError, type WorldState } from '../../model/state/index.js'
import { snapshotOf } from '../../model/state/stream.js'
import { readState } from '../../model/state/read.js'
import { JsonBudget } from '../../fastapi/wire/kept-json.js'

export interface InstanceOptions extends WorldOptions {
  /** The secret fixture tokens are signed with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /** Entries the request journal keeps. @default 1000 */
  journalSize?: number
  /** Admits new worlds (a reset to another size, an import) within a memory budget. @default no limit */
  budget?: MemoryBudget
  /** The named snapshots this instance takes and restores (a server's sessions share one). @default its own */
  snapshots?: Snapshots
  /**
   * The memory the JSON kept of answered lists may take (a server's sessions share one, so that each session's
   * copy of a list does not keep its own). @default its own, of {@link JsonBudget.DEFAULT_BYTES}
   */
  keptJson?: JsonBudget
}

/** A number made from a state's text (FNV-1a): the stream a world loaded from it draws new ids from. */
function streamOf(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193)
  return hash >>> 0
}

/** What a change holds without a memory budget: nothing to let go. */
const NOTHING_HELD = (): void => undefined

/**
 * What is wrong with a state's records of a served document's collections, if anything: the document's check
 * (handlers/documented/state-check.ts), which an import over the control API makes.
 */
export type DocumentedCheck = (contents: DocumentedContents) => string | undefined

/**
 * What is arranged on top of a world: its faults, its clock and the scenarios selected (their names, profile
 * settings, overrides and claims). A reset clears it and a scenario sets it, besides changing records, so undoing
 * either must put it back too. Typed overrides are not part of it: no reset, import or scenario changes them.
 */
export interface Arrangement {
  readonly faults: FaultsConfig
  readonly clock: ClockSetting
  readonly scenarios: ScenarioEffects | undefined
}

/** What a reset arranges: no faults, the clock on real time, no scenario selected. */
const NOTHING_ARRANGED: Arrangement = { faults: {}, clock: REAL_TIME, scenarios: undefined }

/**
 * A world with its fixtures and options, and what was arranged on it: what a reset or an import replaces, and what
 * undoing it brings back. Taken as the world is swapped, the first thing a reset, an import, a snapshot restored
 * and a scenario selection change: so it holds everything as it was before the change began.
 */
export interface Generation {
  world: World
  fixtures: Fixtures
  options: WorldOrigin
  arrangement: Arrangement
}

/**
 * One mock backend: a world, the fixtures for it, and what is arranged on top of it (faults, typed
 * overrides, selected scenarios, the clock), with its request journal and recorded contract.
 * A reset or an import builds the new world completely before swapping it in, so a
 * request never sees a half-seeded world (it keeps the world it started with).
 */
export class MockInstance {
  /** Latency, errors and dropped connections in place of the API's answers; a reset clears them. */
  readonly faults = new Faults()
  /** This instance's time: new records' timestamps, token expiry. A reset sets it back to real time. */
  readonly clock = new Clock()
  /**
   * Typed overrides, by operation (`mock.override`, `PUT /__mock/overrides/{operation}`). A reset of the
   * world keeps them; `resetHandlers()` and `DELETE /__mock/overrides` drop them.
   */
  readonly overrides = new OperationOverrides()
  /** The scenarios selected now and those a reset selects again (core/scenarios/effects.ts applies them). */
  readonly scenarios = new ScenarioSelection()
  /** Valid records of the current world: `records.builders`, `records.creators`, `create`, `delete`. */
  readonly records = new RecordFactory(this)
  /** The recent requests answered, oldest first, for a test to assert on (`GET /__mock/requests`); a reset keeps it. */
  readonly journal: Journal
  /** The distinct interactions answered, for a recorded contract (`GET /__mock/contract`). */
  readonly recorder = new ContractRecorder()
  /** Named snapshots of worlds, shared with the other instances of the same mock. */
  readonly snapshots: Snapshots
  /** The memory the JSON kept of answered lists may take, shared with the other instances of the same mock. */
  readonly keptJson: JsonBudget
  /** The world the API answers from now: a fork of a seeded base, an imported world or a restored snapshot's. */
  #world: World
  /** Ids of the current world's seeded records, and ready tokens signed with this instance's secret. */
  #fixtures: Fixtures
  /** The seed and size the current world was built with. */
  #options: WorldOrigin
  /** Counts the worlds swapped in or brought back, so that {@link stateVersion} changes with each. */
  #generation = 0
  /** Told of every world swapped in (see {@link onSwap}). */
  readonly #swapListeners: Array<(previous: Generation) => void> = []
  /** The changes of several steps under way (see {@link asOneChange}), and what resolves once none is. */
  #stepwiseChangesUnderWay = 0
  #settled: Promise<void> | undefined
  #settle: () => void = () => undefined

  private constructor(
    world: World,
    fixtures: Fixtures,
    options: WorldOrigin,
    /** What it was created with: the secret, the journal's size, the memory budget, the snapshots. */
    private readonly settings: InstanceOptions,
  ) {
    this.#world = world
    this.#fixtures = fixtures
    this.#options = options
    this.journal = new Journal(settings.journalSize)
    this.snapshots = settings.snapshots ?? new Snapshots()
    this.keptJson = settings.keptJson ?? new JsonBudget()
  }

  /** A freshly seeded instance. */
  static async create(options: InstanceOptions = {}): Promise<MockInstance> {
    const worldOptions = checkWorldOptions(options)
    const base = await seededBase(worldOptions, options.budget)
    const secret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
    return new MockInstance(await base.world.fork(), await base.fixtures(secret), worldOptions, options)
  }

  get world(): World {
    return this.#world
  }

  get fixtures(): Fixtures {
    return this.#fixtures
  }

  /** The seed and size the current world was built with (an imported world's: those its state file names). */
  get worldOptions(): Required<WorldOptions> {
    return this.#options
  }

  /** Whether the current world's records were imported from a server (`agent-console-mock import`), not seeded. */
  get imported(): boolean {
    return this.#options.imported === true
  }

  /** Changes whenever the state does (a write, a reset, an import): what persistence watches. */
  get stateVersion(): string {
    return `${this.#generation}.${this.#world.version}`
  }

  /**
   * Back to a freshly seeded world (this seed and size unless given), a fork of the shared one: faults cleared, the
   * clock on real time, no scenario selected, all in the one step that swaps the world in (so undoing the swap
   * brings all of it back).
   */
  async reset(options: WorldOptions = {}): Promise<void> {
    const worldOptions = checkWorldOptions(worldOptionsOver(options, this.#options))
    const base = await seededBase(worldOptions, this.settings.budget)
    this.#swap(await base.world.fork(), worldOptions, await base.fixtures(this.#secret), NOTHING_ARRANGED)
  }

  /**
   * A fork of the seeded world of `options` (this seed and size unless given), new ones admitted by the memory
   * budget: a world of a request's own scenarios, which this instance does not keep.
   */
  async seededFork(options: WorldOptions = {}): Promise<World> {
    const base = await seededBase(checkWorldOptions(worldOptionsOver(options, this.#options)), this.settings.budget)
    return base.world.fork()
  }

  /** The state now, as a snapshot that later writes do not change (to write out in slices: `stateText`). */
  stateSnapshot(): WorldState {
    return snapshotOf({ ...this.#options, ...this.#contents() })
  }

  /** The whole world as a state file's JSON. */
  exportState(): string {
    return serializeState({ ...this.#options, ...this.#contents() })
  }

  /**
   * Replaces the world with the one a state file holds.
   * @throws StateError when the state is not valid; the world is then unchanged.
   */
  async importState(text: string, checkDocumented?: DocumentedCheck): Promise<void> {
    const { world, options, release } = await this.#load(text, 'this state', checkDocumented)
    try {
      this.#swap(world, options, await buildFixtures(world, this.#secret))
    } finally {
      release()
    }
  }

  /** Keeps the world as it is now under `name` (see {@link Snapshots}). @throws Response 503 past the memory budget */
  snapshot(name: string): Promise<Snapshot> {
    this.admit(snapshotBytes(this.#world), `a snapshot of this world`)
    return this.snapshots.take(name, this.#world, this.#options)
  }

  /**
   * Keeps the world a state file holds as the snapshot `name`, without changing this instance's.
   * @throws StateError when the state is not valid; Response 503 when it does not fit the memory budget
   */
  async importSnapshot(name: string, text: string, checkDocumented?: DocumentedCheck): Promise<Snapshot> {
    checkName(name)
    const { world, options, release } = await this.#load(text, 'this snapshot', checkDocumented)
    try {
      return await this.snapshots.take(name, world, options)
    } finally {
      release()
    }
  }

  /**
   * Makes room in the memory budget for a change that adds about `bytes` (the least recently
   * used sessions may be let go). @throws Response 503 when there is no room even then
   */
  admit(bytes: number, what: string): void {
    this.settings.budget?.admit(bytes, what)
  }

  /**
   * Admits a change as {@link admit} does, and counts its `bytes` as in use until the returned function is called
   * (once the change is made, or failed), so that changes under way at once do not each see the same room.
   */
  hold(bytes: number, what: string): () => void {
    return this.settings.budget?.hold(bytes, what) ?? NOTHING_HELD
  }

  /** A state file's world, once the memory budget has room for it, held in the budget until `release`. */
  async #load(
    text: string,
    what: string,
    checkDocumented: DocumentedCheck | undefined,
  ): Promise<{ world: World; options: WorldOrigin; release: () => void }> {
    const state = await readState(text)
    const refused = state.documented && checkDocumented?.(state.documented)
    if (refused) throw new StateError(refused)
    const bytes = worldBytes(state.contents) + documentedBytes(state.documented ?? NO_DOCUMENTED)
    const release = this.hold(bytes, what)
    try {
      const world = (await new World(state.seed).load(state.contents)).drawIdsFrom(streamOf(text))
      if (state.documented) world.loadDocumented(state.documented)
      return { world, options: originOf(state), release }
    } catch (error) {
      release()
      throw error
    }
  }

  /**
   * Replaces the world with a fork of a snapshot's (faults and the clock stay).
   * @throws SnapshotError when there is no snapshot of that name
   */
  async restoreSnapshot(name: string): Promise<void> {
    const { base } = this.snapshots.get(name)
    this.#swap(await base.world.fork(), base.options, await base.fixtures(this.#secret))
  }

  /**
   * Runs a change of several steps (a scenario selection: a reset, then each scenario's records, faults and clock)
   * as one: a persistence takes none of it into a write before it ends, so that a disk that fails refuses all of it
   * or none (a reset written alone, and the scenarios' records refused after it, would leave half a selection).
   */
  async asOneChange<T>(change: () => Promise<T>): Promise<T> {
    if (this.#stepwiseChangesUnderWay++ === 0) this.#settled = new Promise((resolve) => (this.#settle = resolve))
    try {
      return await change()
    } finally {
      if (--this.#stepwiseChangesUnderWay === 0) {
        this.#settled = undefined
        this.#settle()
      }
    }
  }

  /** Resolves once no change of several steps ({@link asOneChange}) is under way; undefined when none is. */
  get settled(): Promise<void> | undefined {
    return this.#settled
  }

  /** Calls `listener` right after every reset or import, with what it replaced (a persistence logs or undoes it). */
  onSwap(listener: (previous: Generation) => void): void {
    this.#swapListeners.push(listener)
  }

  /**
   * Brings back a generation a reset or an import replaced, with what was arranged on it (a persistence undoing a
   * change it could not keep: the scenarios' faults, clock and selection go with the world they were applied to).
   */
  restore(previous: Generation): void {
    this.#world = previous.world
    this.#fixtures = previous.fixtures
    this.#options = previous.options
    this.#arrange(previous.arrangement)
    this.#generation++
  }

  /** What is arranged on the world now (a generation's {@link Arrangement}). */
  get arrangement(): Arrangement {
    return { faults: this.faults.config, clock: this.clock.setting, scenarios: this.scenarios.selected }
  }

  #arrange(arrangement: Arrangement): void {
    this.faults.set(arrangement.faults)
    this.clock.putBack(arrangement.clock)
    this.scenarios.selected = arrangement.scenarios
  }

  /** The world's records: its collections', and a served document's. */
  #contents(): Pick<WorldState, 'contents' | 'documented'> {
    return { contents: this.#world.contents(), documented: this.#world.documentedContents }
  }

  get #secret(): string {
    return this.settings.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  }

  /**
   * Swaps a new world in, arranged as `arrangement` says (unless given: as the world it replaces), and tells the
   * listeners what it replaced. Synchronous: no request sees the new world arranged as the old one was.
   */
  #swap(world: World, options: WorldOrigin, fixtures: Fixtures, arrangement?: Arrangement): void {
    const previous: Generation = {
      world: this.#world,
      fixtures: this.#fixtures,
      options: this.#options,
      arrangement: this.arrangement,
    }
    this.restore({ world, fixtures, options, arrangement: arrangement ?? previous.arrangement })
    for (const listener of this.#swapListeners) listener(previous)
  }
}
