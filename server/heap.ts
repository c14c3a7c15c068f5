import { getHeapStatistics, setFlagsFromString } from 'node:v8'

/** How far (in percent) the old generation may grow past what the last full GC kept. */
const SERVER_HEAP_GROWTH_PERCENT = 25

/** Heaps at least this large once the world is seeded keep the bound; smaller ones go back to V8's defaults. */
const LARGE_HEAP_BYTES = 100 * 1024 * 1024

/**
 * Bounds V8's heap growth in the standalone server's process while it holds a large world.
 * Under load each request still leaves a little in the old generation (mostly undici's
 * `Request`, which Node 20 keeps past young-generation GCs even in a bare loop; also the
 * journal entry), and by default V8 lets the old generation grow to several times what it
 * grows by between full GCs: a large world's process then holds far more than the world, and
 * the bound takes much of that back for a small share of the persona-list throughput
 * (docs/performance.md). A small world keeps V8's defaults: there the bound only adds full
 * GCs, which cost throughput and save little.
 *
 * The bound is set before the world is seeded (V8 reads it when a full GC sets the next
 * limit, and seeding is when that happens), and the returned function, called once the
 * server is up, lifts it again if the heap turned out small. A `--heap-growing-percent`
 * given to node wins. Only the CLI calls this: a program hosting the mock tunes its own process.
 * @example const settle = boundHeapGrowth(); await startServer(options); settle()
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): () => boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return () => false
  setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWTH_PERCENT}`)
  return () => {
    if (getHeapStatistics().used_heap_size >= LARGE_HEAP_BYTES) return true
    // 0 is V8's "not set": the growing factor is computed as usual again.
    setFlagsFromString('--heap-growing-percent=0')
    return false
  }
}

/**
 * What comes off V8's heap limit before the budget's share: the young generation (up to 48 MiB, where nothing long
 * lived stays), the process's own ~30 MB, and requests in flight (bodies read whole, up to 1 MiB each).
 */
const HEAP_RESERVE_BYTES = 96 * 1024 * 1024

/**
 * The share of the rest the worlds may hold by default. Beside the budget the heap holds the kept JSON of answered
 * lists (up to a quarter of it) and V8's slack. At 70% of the whole limit, journals filling the budget of a 128 MB
 * heap (whose limit of 176 MB counts a 48 MB young generation) left too little for 14 bodies of 65 KB at once.
 */
const BUDGET_SHARE = 0.5

/** The least default budget: a few sessions' journals on the smallest heaps. */
const MIN_BUDGET_BYTES = 16 * 1024 * 1024

/** The default memory budget of the standalone server's worlds, in bytes: 2 GiB of a 4 GiB heap, 40 MiB of 128 MiB. */
export const defaultMemoryBudget = (): number =>
  Math.max(MIN_BUDGET_BYTES, Math.floor((getHeapStatistics().heap_size_limit - HEAP_RESERVE_BYTES) * BUDGET_SHARE))
