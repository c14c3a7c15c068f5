import type { Claims } from '../../model/auth/claims.js'
import { readableResponse, Reply, type Outcome } from '../../fastapi/http/reply.js'
import type { Fixtures } from '../../factories/fixtures.js'
import type { OperationName } from '../../model/api/routes.js'
import { RecordFactory } from '../../factories/build.js'
import type { WorldOptions } from '../../factories/world.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../../model/profile.js'
import type { World } from '../../model/world.js'
import { Clock } from '../instance/clock.js'
import { Faults, FaultsConfig } from '../instance/faults.js'
import type { MockInstance } from '../instance/instance.js'
import type { ScenarioOverride, Scenario, ScenarioContext } from './index.js'
import type { ScenarioEffects } from './selection.js'

/** What a request is answered with: the world, clock and faults, and the scenarios' effects. */
export interface ScenarioView {
  world: World
  clock: Clock
  faults: Faults
  fixtures: Fixtures
  effects: ScenarioEffects | undefined
}

/**
 * Selects scenarios for an instance: a freshly seeded world of `world`'s seed and size, faults
 * cleared, the clock back to real time, then each scenario applied in turn. The empty list
 * leaves the plain seeded world. The reset comes first and changes nothing before it: the
 * generation it replaces (instance.ts) holds everything as it was, which undoing the selection
 * (a state file that could not take it) brings back, the scenarios' faults, clock and names with it;
 * the whole selection is one change, written or refused whole.
 */
export const selectScenarios = (
  instance: MockInstance,
  scenarios: readonly Scenario[],
  world: WorldOptions,
): Promise<void> => instance.asOneChange(() => resetAndApply(instance, scenarios, world))

/** The steps of {@link selectScenarios}: kept or undone together. */
async function resetAndApply(instance: MockInstance, scenarios: readonly Scenario[], world: WorldOptions) {
  await instance.reset(world)
  if (scenarios.length === 0) return
  const effects = newEffects(scenarios)
  const context = contextOf(
    {
      get world() {
        return instance.world
      },
      fixtures: () => instance.fixtures,
      clock: instance.clock,
      faults: instance.faults,
      records: instance.records,
      reset: async (options) => keepingFaultsAndClock(instance.faults, instance.clock, () => instance.reset(options)),
    },
    effects,
  )
  for (const scenario of scenarios) await scenario.apply(context)
  checkProfile(effects)
  instance.scenarios.selected = effects
}

/** A reset to `world`'s seed and size, with the scenarios the instance started with applied again. */
export const resetWithScenarios = (instance: MockInstance, world: WorldOptions): Promise<void> =>
  selectScenarios(instance, instance.scenarios.atStart, world)

/** What a request that names no scenario of its own is answered with: the instance's, with its scenarios. */
export const instanceView = (instance: MockInstance): ScenarioView => ({
  world: instance.world,
  clock: instance.clock,
  faults: instance.faults,
  fixtures: instance.fixtures,
  effects: instance.scenarios.selected,
})

/**
 * What one request is answered with. Without scenarios of its own: the instance's world, clock and
 * faults, with the scenarios selected for it. With some (`X-Mock-Scenario`), they apply on top of
 * those, for this request only: to a copy of the clock and faults, and to a fork of the world made
 * for the request. A scenario that touches no data (faults, profile, overrides, claims, clock only)
 * leaves the request on the instance's world, so its writes are kept; one that does leaves it on the
 * fork, which is dropped after the answer.
 */
export async function scenarioView(instance: MockInstance, scenarios: readonly Scenario[]): Promise<ScenarioView> {
  const base = instance.scenarios.selected
  if (scenarios.length === 0) return instanceView(instance)
  const clock = copyClock(instance.clock)
  const faults = new Faults()
  faults.set(instance.faults.config)
  let world = await forkWorld(instance.world)
  let touched = false
  const source = {
    get world() {
      touched = true
      return world
    },
    clock,
  }
  const effects = newEffects(scenarios, base)
  const context = contextOf(
    {
      get world() {
        return source.world
      },
      clock,
      fixtures: () => instance.fixtures,
      faults,
      records: new RecordFactory(source),
      reset: async (options) => {
        touched = true
        world = await instance.seededFork(options)
      },
    },
    effects,
  )
  for (const scenario of scenarios) await scenario.apply(context)
  checkProfile(effects)
  return { world: touched ? world : instance.world, clock, faults, fixtures: instance.fixtures, effects }
}

/** The profile a request is answered with: the core's, with the scenarios' settings merged (cached per selection). */
export function profileOf(base: Profile, effects: ScenarioEffects | undefined): Profile {
  if (!effects?.profile) return base
  const cache = effects.resolvedProfileCache
  let profile = cache.get(base)
  if (!profile) cache.set(base, (profile = resolveProfile(mergeProfile(base, effects.profile))))
  return profile
}

/** The claims a valid token carries, as the scenarios make the API see them. */
export const claimsOf = (claims: Claims, effects: ScenarioEffects | undefined): Claims =>
  effects ? effects.claims.reduce((current, transform) => transform(current), claims) : claims

/**
 * Answers an operation through the scenarios' overrides of it, the last added first; each one's
 * `answer()` hands the request to the one before, and the first's to the API.
 */
export function answerWithOverrides(
  overrides: readonly ScenarioOverride[] | undefined,
  context: Omit<Parameters<ScenarioOverride>[0], 'answer' | 'profile'>,
  profile: Profile,
  api: (profile: Profile) => Promise<Outcome>,
): Promise<Outcome> {
  const run = (index: number, current: Profile): Promise<Outcome> => {
    const override = overrides?.[index]
    if (!override) return api(current)
    const answer = (settings?: ProfileOptions) =>
      asResponse(run(index - 1, settings ? resolveProfile(mergeProfile(current, settings)) : current))
    return Promise.resolve(override({ ...context, profile: current, answer }))
  }
  return run((overrides?.length ?? 0) - 1, profile)
}

/** The API's answer as an override sees it: a `Response` with its body, thrown as one where the API refused. */
async function asResponse(outcome: Promise<Outcome>): Promise<Response> {
  try {
    return readableResponse(await outcome)
  } catch (thrown) {
    throw thrown instanceof Reply ? readableResponse(thrown) : thrown
  }
}

interface Target {
  readonly world: World
  fixtures(): Fixtures
  clock: Clock
  faults: Faults
  records: RecordFactory
  reset(options?: WorldOptions): Promise<void>
}

function contextOf(target: Target, effects: ScenarioEffects): ScenarioContext {
  return {
    get world() {
      return target.world
    },
    get fixtures() {
      return target.fixtures()
    },
    create: target.records.creators,
    build: target.records.builders,
    records: target.records,
    clock: target.clock,
    faults: (config) => target.faults.set(mergeFaults(target.faults.config, FaultsConfig.parse(config))),
    profile: (settings) => void (effects.profile = mergeProfile(effects.profile ?? {}, settings)),
    override: (operation, override) => void (effects.overrides[operation] ??= []).push(override),
    claims: (transform) => void effects.claims.push(transform),
    reset: (options) => target.reset(options),
  }
}

function newEffects(scenarios: readonly Scenario[], base?: ScenarioEffects): ScenarioEffects {
  const overrides: ScenarioEffects['overrides'] = {}
  for (const [name, list] of Object.entries(base?.overrides ?? {})) overrides[name as OperationName] = [...list]
  return {
    names: [...(base?.names ?? []), ...scenarios.map((scenario) => scenario.name)],
    profile: base?.profile,
    overrides,
    claims: [...(base?.claims ?? [])],
    resolvedProfileCache: new WeakMap(),
  }
}

/** Fails at selection, naming the scenarios, when their profile settings are not valid. */
function checkProfile(effects: ScenarioEffects): void {
  if (!effects.profile) return
  try {
    resolveProfile(effects.profile)
  } catch (error) {
    throw new Error(`Scenarios ${effects.names.join(', ')}: ${(error as Error).message}`)
  }
}

/** Settings over settings: `bounds`, `rulesPaging`, `errorTexts` and `declaredErrors` field by field. */
function mergeProfile<T extends ProfileOptions>(base: T, settings: ProfileOptions): T {
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(settings)) {
    const before = merged[key]
    merged[key] = isObject(before) && isObject(value) ? { ...before, ...value } : value
  }
  return merged as T
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Faults over faults: each field given replaces the one before, operation by operation. */
function mergeFaults(base: FaultsConfig, added: FaultsConfig): FaultsConfig {
  const operations = { ...base.operations }
  for (const [name, set] of Object.entries(added.operations ?? {}))
    operations[name as OperationName] = { ...operations[name as OperationName], ...set }
  return { ...base, ...added, ...(Object.keys(operations).length > 0 ? { operations } : {}) }
}

function copyClock(clock: Clock): Clock {
  const copy = new Clock()
  return clock.frozen ? copy.freeze(clock.nowMs()) : copy.set(clock.nowMs())
}

async function keepingFaultsAndClock(faults: Faults, clock: Clock, reset: () => Promise<void>): Promise<void> {
  const config = faults.config
  const { frozen } = clock
  const ms = clock.nowMs()
  await reset()
  faults.set(config)
  clock.set(ms, { frozen })
}

/**
 * A copy-on-write fork of what the world holds now: of a snapshot of it, as a world that is still
 * written must not be forked directly (its fork would see its later writes).
 */
async function forkWorld(world: World): Promise<World> {
  return (await world.snapshot()).fork()
}
