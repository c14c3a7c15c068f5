import { buildFixtures, type Fixtures } from '../../factories/fixtures.js'
import { createWorld, type WorldOptions } from '../../factories/world.js'
import type { World } from '../../model/world.js'
import { seededWorldBytes, type MemoryBudget } from './memory-budget.js'

/** Seeded worlds kept for forking; others live on only while forks of them do. */
const KEPT_BASES = 3

/** The seed and size a world was made with, and whether its records were imported instead (a state file's). */
export type WorldOrigin = Required<WorldOptions> & { imported?: true }

/** A seeded world nobody writes, which instances fork, with the fixtures of each secret. */
export interface Base {
  readonly world: World
  readonly options: WorldOrigin
  fixtures(secret: string): Promise<Fixtures>
}

interface Kept {
  readonly base: Promise<Base>
  /** The base once built (a budget counts it). */
  built?: Base
}

/** Bases kept, by seed and size, least recently used first. */
const kept = new Map<string, Kept>()
/** Bases no longer kept, found again while forks of them still hold them. */
const released = new Map<string, WeakRef<Base>>()

/**
 * The seeded world for a seed and size, built once and shared by every fork of it (each
 * session, each reset, each Playwright test): the same seed and size give the same world, so
 * seeding it again would only cost time and memory. A new one is first admitted by `budget`.
 * @throws Response 503 when `budget` has no room for a new one
 * @example const world = await (await seededBase({ seed: 1, personasPerTeam: 60 })).world.fork()
 */
export function seededBase(options: Required<WorldOptions>, budget?: MemoryBudget): Promise<Base> {
  const key = `${options.seed}/${options.personasPerTeam}`
  let entry = kept.get(key)
  if (entry)
    kept.delete(key) // re-inserted below: Map order is the recency order
  else entry = revive(key) ?? build(key, options, budget)
  kept.set(key, entry)
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_BASES) break
    release(oldest)
  }
  return entry.base
}

function revive(key: string): Kept | undefined {
  const alive = released.get(key)?.deref()
  released.delete(key)
  return alive && { base: Promise.resolve(alive), built: alive }
}

function build(key: string, options: Required<WorldOptions>, budget: MemoryBudget | undefined): Kept {
  const release = budget?.hold(
    seededWorldBytes(options.personasPerTeam),
    `a world of ${options.personasPerTeam} personas per team`,
  )
  const entry: Kept = {
    base: createWorld(options)
      .then((world) => (entry.built = baseOf(world, options)))
      .finally(release),
  }
  entry.base.catch(() => kept.get(key) === entry && kept.delete(key))
  return entry
}

function release(key: string): void {
  const built = kept.get(key)?.built
  kept.delete(key)
  if (built) released.set(key, new WeakRef(built))
}

/** The worlds of the bases kept (built ones): what a memory budget counts besides the instances'. */
export const keptBaseWorlds = (): World[] => [...kept.values()].flatMap((entry) => entry.built?.world ?? [])

/**
 * Stops keeping the least recently used base none of `used` forks from (a memory budget
 * making room; the forks keep theirs). @returns whether one was let go
 */
export function releaseUnusedBase(used: ReadonlySet<World>): boolean {
  for (const [key, entry] of kept) {
    if (entry.built && !used.has(entry.built.world)) return (release(key), true)
  }
  return false
}

/** A world to fork from now on (an import, a snapshot): the caller never writes it again. */
export function baseOf(world: World, options: WorldOrigin): Base {
  const fixtures = new Map<string, Promise<Fixtures>>()
  return {
    world,
    options,
    fixtures(secret) {
      let built = fixtures.get(secret)
      if (!built) fixtures.set(secret, (built = buildFixtures(world, secret)))
      return built
    },
  }
}
