import type fc from 'fast-check'

/**
 * `npm run fuzz` sets FUZZ_SCALE: every property then runs that many times its CI count of
 * cases (properties differ a hundredfold in cost per case), from a fresh seed. FUZZ_SEED
 * replays the seed a failure report printed.
 */
const FUZZ_SCALE = Number(process.env.FUZZ_SCALE) || undefined
const FUZZ_SEED =
  process.env.FUZZ_SEED === undefined || process.env.FUZZ_SEED === '' ? undefined : Number(process.env.FUZZ_SEED)

export const fuzzing = FUZZ_SCALE !== undefined

/** How many cases a property runs: its CI count, times FUZZ_SCALE under `npm run fuzz`. */
export const runsOf = (ciRuns: number): number => Math.round(ciRuns * Math.max(1, FUZZ_SCALE ?? 1))

/**
 * fast-check parameters: in CI a fixed seed, so that a failure is the same on every machine
 * and every run; under `npm run fuzz`, a fresh seed each time (FUZZ_SEED to replay one).
 */
export function fuzzParameters<T>(ciRuns: number, seed: number): fc.Parameters<T> {
  return {
    numRuns: runsOf(ciRuns),
    seed: FUZZ_SEED ?? (fuzzing ? Date.now() % 2 ** 31 : seed),
    endOnFailure: true,
  }
}

/**
 * A vitest timeout for a property: a hang guard, not a bound on speed. `msPerRun` is what
 * one run costs on an idle machine; a loaded one may take several times that, so each run
 * gets four times as much, plus a minute.
 */
export const timeoutFor = (ciRuns: number, msPerRun: number): number => 60_000 + runsOf(ciRuns) * msPerRun * 4

/**
 * How long one request may go unanswered before a test calls it a hang: generous, so that a
 * loaded machine never trips it; a slow answer is not a failure, only a missing one is.
 */
export const HANG_GUARD_MS = 20_000

/** Fails when a promise does not settle within `ms` (a hang guard: use HANG_GUARD_MS): the mock must never hang. */
export function withinMs<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang guard: no answer within ${ms} ms: ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Counts what the cases of a property came to, and prints it under `npm run fuzz`: what the run covered. */
export function tally(title: string) {
  const counts = new Map<string, number>()
  return {
    add(key: string) {
      counts.set(key, (counts.get(key) ?? 0) + 1)
    },
    print() {
      if (!fuzzing) return
      const lines = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, count]) => `  ${key}: ${count}`)
      console.info(`${title}\n${lines.join('\n')}`)
    },
  }
}
