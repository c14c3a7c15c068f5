import { expect } from 'vitest'
import type { Answer } from '../../support/answer.js'

type StoredValue = { value: string; sort_order: number | bigint }

/** A mock reached one way or another (in-process or over HTTP), as the concurrency checks need it. */
export interface Target {
  /** Bulk-adds to one dimension as a super admin. */
  bulkAdd(body: string): Promise<Answer>
  /** The dimension's values as stored right now. */
  stored(): StoredValue[]
}

const bigintOf = (value: number | bigint) => BigInt(value)

/** Resets per race: each builds a whole world, so they are what the race costs. */
const RESETS = 16
/** Reads the readers make at least while resets run. */
const MIN_READS = 80

/**
 * 50 bulk adds at once, 20 values each, over a pool of 300 values (5 of them already in the
 * dimension), so every value is asked for by several batches at the same moment. Afterwards
 * no value is lost, none is duplicated, and the new sort orders are unique and consecutive.
 */
export async function fiftyParallelBulkAdds(target: Target, prefix: string): Promise<void> {
  const before = target.stored()
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
  const largest = before.reduce((max, v) => (bigintOf(v.sort_order) > max ? bigintOf(v.sort_order) : max), -1n)
  const pool = [...before.slice(0, 5).map((v) => v.value), ...Array.from({ length: 295 }, (_, i) => `${prefix}-${i}`)]
  const batches = Array.from({ length: 50 }, (_, b) =>
    Array.from({ length: 20 }, (_, i) => pool[(b * 37 + i * 13) % pool.length]!),
  )
  const answers = await Promise.all(
    batches.map((values) => target.bulkAdd(JSON.stringify({ values: values.map((value) => ({ value })) }))),
  )
  expect(answers.map((a) => a.status)).toEqual(batches.map(() => 201))
  const created = answers.flatMap((a) => (a.json as Array<{ value: string }>).map((v) => v.value))
  const fresh = [...new Set(batches.flat())].filter((value) => !before.some((v) => v.value === value))
  expect(created.length, 'each value is created once').toBe(new Set(created).size)
  expect(new Set(created)).toEqual(new Set(fresh))
  const after = target.stored()
  expect(after.map((v) => v.value).sort(), 'no value lost, none duplicated').toEqual(
    [...before.map((v) => v.value), ...fresh].sort(),
  )
  const orders = after
    .slice(before.length)
    .map((v) => bigintOf(v.sort_order))
    .sort((a, b) => (a < b ? -1 : 1))
  expect(orders, 'sort orders unique and consecutive after the largest before').toEqual(
    fresh.map((_, i) => largest + 1n + BigInt(i)),
  )
}

/**
 * Waits for the next turn of the event loop. In-process, msw answers a fetch entirely in
 * microtasks, so a client that loops on fetch without this never lets a timer or a reset
 * (which signs tokens on the thread pool) finish: the loop starves (docs/reliability.md).
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** What the reset race needs of a mock, in-process or over HTTP. */
export interface ResetRace {
  /** Resets the world to `personas` per team (the seed stays). */
  reset(personas: number): Promise<unknown>
  /** Total of the first team's personas, as a team reader lists them (undefined when not a 200). */
  personaTotal(): Promise<{ status: number; total?: number }>
  /** Total of the first policy's rules. */
  ruleTotal(): Promise<{ status: number; total?: number }>
  /** Bulk-adds one batch of values; its answer. */
  bulkAdd(values: string[]): Promise<Answer>
  /** The values stored in the first dimension once everything settled. */
  storedValues(): Promise<string[]>
}

/**
 * Resets that alternate between two world sizes, while readers list and writers add. A
 * reader never sees a half-seeded world: every total is one of the two seeded totals. A
 * batch written meanwhile ends up whole or not at all (a reset may discard it).
 */
export async function resetsWhileReading(
  race: ResetRace,
  sizes: readonly [number, number],
  rules: number,
): Promise<{ reads: number; resets: number; batches: number }> {
  let running = true
  const totals: number[] = []
  const ruleTotals: number[] = []
  const statuses: number[] = []
  const reader = async () => {
    while (running) {
      await nextTurn()
      const [personas, rulesPage] = await Promise.all([race.personaTotal(), race.ruleTotal()])
      statuses.push(personas.status, rulesPage.status)
      if (personas.total !== undefined) totals.push(personas.total)
      if (rulesPage.total !== undefined) ruleTotals.push(rulesPage.total)
    }
  }
  const batches: string[][] = []
  const writer = async (w: number) => {
    for (let b = 0; running; b++) {
      await nextTurn()
      const values = Array.from({ length: 10 }, (_, i) => `race-${w}-${b}-${i}`)
      batches.push(values)
      expect((await race.bulkAdd(values)).status).toBe(201)
    }
  }
  const resetter = async () => {
    // Resets fork a shared seeded world and take no time: they go on until the readers have read
    // often enough for the race to be real (counted, not timed).
    for (let i = 0; i < RESETS || totals.length + ruleTotals.length < MIN_READS; i++) {
      await race.reset(sizes[i % 2]!)
      await nextTurn()
    }
    running = false
  }
  await Promise.all([
    resetter(),
    ...Array.from({ length: 4 }, reader),
    ...Array.from({ length: 2 }, (_, w) => writer(w)),
  ])
  expect(new Set(statuses), 'every read answered 200').toEqual(new Set([200]))
  expect(
    totals.filter((total) => !sizes.includes(total)),
    'persona totals are always a seeded total',
  ).toEqual([])
  expect(
    ruleTotals.filter((total) => total !== rules),
    'rule totals are always the seeded total',
  ).toEqual([])
  const stored = new Set(await race.storedValues())
  const partial = batches.filter((values) => values.some((v) => stored.has(v)) && !values.every((v) => stored.has(v)))
  expect(partial, 'each batch is in the world whole or not at all').toEqual([])
  return { reads: totals.length + ruleTotals.length, resets: RESETS, batches: batches.length }
}
