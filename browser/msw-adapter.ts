/**
 * Where `setupWorker` differs between msw 2 and msw 3, for the browser host. The rest of browser/
 * uses what both majors share.
 *
 * The option for requests no handler answers is `onUnhandledRequest` in msw 2 and
 * `onUnhandledFrame` in msw 3, and each major ignores the other's name without a word: under the
 * wrong name, 'bypass' becomes msw's default 'warn', and every request the mock passes on (the
 * app's pages, assets, other origins) logs an `[MSW] Warning`.
 */
import type { SetupWorker } from 'msw/browser'

type StartOptions = NonNullable<Parameters<SetupWorker['start']>[0]>

export interface WorkerStart {
  /** Where the worker script is served. */
  url: string
  /** Don't log "Mocking enabled" and the mocked requests. */
  quiet: boolean
}

/** Starts `worker`, passing on what no handler answers without a word, under the name its msw reads. */
export function startPassingOn(worker: SetupWorker, { url, quiet }: WorkerStart): ReturnType<SetupWorker['start']> {
  const bypass = 'bypass' as const
  const unhandled = readsUnhandledFrame(worker) ? { onUnhandledFrame: bypass } : { onUnhandledRequest: bypass }
  // Typed against one major's options: the other major's name is right at run time, not known to tsc.
  return worker.start({ serviceWorker: { url }, quiet, ...unhandled } as StartOptions)
}

/**
 * Whether the worker is msw 3's, which reads `onUnhandledFrame`. msw 3 builds `setupWorker` on its
 * network and exposes the network's `readyState`; msw 2's worker has no such property (the page
 * cannot read msw's package version).
 */
const readsUnhandledFrame = (worker: SetupWorker): boolean => 'readyState' in worker
