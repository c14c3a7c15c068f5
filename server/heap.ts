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

/** The share of V8's heap limit the worlds may hold by default: the rest serves requests and exports. */
const BUDGET_SHARE = 0.7

/** The default memory budget of the standalone server's worlds, in bytes. */
export const defaultMemoryBudget = (): number => Math.floor(getHeapStatistics().heap_size_limit * BUDGET_SHARE)
