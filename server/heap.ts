import { setFlagsFromString } from 'node:v8'

/** How far (in percent) the old generation may grow past what the last full GC kept. */
export const SERVER_HEAP_GROWTH_PERCENT = 25

/**
 * Bounds V8's heap growth in the standalone server's process. The server holds a large,
 * mostly unchanging world, and under load each request leaves a few kilobytes in the old
 * generation (msw's per-request objects outlive young-generation GCs). By default V8 lets
 * the old generation grow to about four times the live data before the next full GC: with
 * 200,000 personas (190 MB live) the process went past 700 MB. Bounded, it stays near
 * 400 MB for about 5% of the throughput. A `--heap-growing-percent` given to node wins.
 * Only the CLI calls this: a program hosting the mock tunes its own process.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) return
  setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWTH_PERCENT}`)
}
