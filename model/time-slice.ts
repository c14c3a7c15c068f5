/**
 * Long loops (seeding, loading, exporting and importing large worlds) give the event loop back
 * every few milliseconds of work, so that a health check or another session's request waiting
 * on its socket is answered in between (docs/reliability.md, "No event-loop stalls").
 * Web-standard: the same in a browser, a service worker and Node.
 */

/** Milliseconds of work between two yields: a request waiting on a socket needs two or three turns of the loop, so a p99 well under 100 ms; long enough that yielding costs little. */
export const SLICE_MS = 5

/** How many steps between two looks at the clock: reading it costs more than the smallest steps do. */
const STEPS_PER_CHECK = 64

type Scheduler = { yield?: () => Promise<void> }
type Immediate = (callback: () => void) => unknown

/**
 * Resolves in a later macrotask, after pending I/O (a microtask would not let I/O in):
 * `scheduler.yield()` where the runtime has it (browsers), else `setImmediate` (Node, Bun,
 * Deno: it runs right after the poll phase, without setTimeout's 1 ms), else `setTimeout(0)`.
 */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate
  if (typeof immediate === 'function') return new Promise((resolve) => void immediate(resolve))
  return new Promise((resolve) => void setTimeout(resolve, 0))
}

/**
 * A loop's share of the event loop: call {@link TimeSlice.due} once per step (cheap: it reads
 * the clock every {@link STEPS_PER_CHECK} steps), and `await slice.yield()` when it says so.
 * @example
 * const slice = new TimeSlice()
 * for (const record of records) {
 *   if (slice.due()) await slice.yield()
 *   store(record)
 * }
 */
export class TimeSlice {
  #started = performance.now()
  #steps = 0

  constructor(
    readonly sliceMs = SLICE_MS,
    readonly stepsPerCheck = STEPS_PER_CHECK,
  ) {}

  /** Whether the slice is used up (checked every `stepsPerCheck` calls). */
  due(): boolean {
    if (++this.#steps < this.stepsPerCheck) return false
    this.#steps = 0
    return performance.now() - this.#started >= this.sliceMs
  }

  /** Whether the slice is used up, looking at the clock now. */
  spent(): boolean {
    return performance.now() - this.#started >= this.sliceMs
  }

  /** Gives the event loop back, then starts a new slice. */
  async yield(): Promise<void> {
    await yieldToEventLoop()
    this.#started = performance.now()
    this.#steps = 0
  }

  /** Yields only when the slice is used up. */
  async yieldIfSpent(): Promise<void> {
    if (this.spent()) await this.yield()
  }
}
