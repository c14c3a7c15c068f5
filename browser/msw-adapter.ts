/**
 * Where `setupWorker` differs between msw 2 and msw 3, for the browser host. The rest of browser/
 * uses what both majors share.
 *
 * The option for requests no handler answers is `onUnhandledRequest` in msw 2 and
 * `onUnhandledFrame` in msw 3, and each major ignores the other's name without a word: under the
 * wrong name, 'bypass' becomes msw's default 'warn', and every request the mock passes on (the
 * app's pages, assets, other origins) logs an `[MSW] Warning`.
 *
 * A start that fails after enabling msw's network (msw 3, where no worker script is served) leaves msw's WebSocket
 * interceptor applied to the page, and no later start in the page can apply it again: each fails with msw's
 * `Failed to replace a global value at "WebSocket": already replaced`. Undoing it takes `worker.stop()`, which on
 * msw 3 waits for a service worker that never came. So the first failure is kept and every later start rejects
 * with it (the Vitest kit starts its worker again for each test of a file once the start failed).
 */
import type { SetupWorker } from 'msw/browser'

type StartOptions = NonNullable<Parameters<SetupWorker['start']>[0]>

export interface WorkerStart {
  /** Where the worker script is served. */
  url: string
  /** Don't log "Mocking enabled" and the mocked requests. */
  quiet: boolean
}

/**
 * Starts `worker`, passing on what no handler answers without a word, under the name its msw reads.
 * @throws Error saying how to serve the worker script when msw cannot register it (msw's error is the cause)
 */
export async function startPassingOn(worker: SetupWorker, { url, quiet }: WorkerStart): Promise<StartResult> {
  if (pageCannotStart) throw pageCannotStart.error
  const bypass = 'bypass' as const
  const unhandled = readsUnhandledFrame(worker) ? { onUnhandledFrame: bypass } : { onUnhandledRequest: bypass }
  try {
    // Typed against one major's options: the other major's name is right at run time, not known to tsc.
    return await worker.start({ serviceWorker: { url }, quiet, ...unhandled } as StartOptions)
  } catch (error) {
    const failure = registrationFailed(error, url)
    if (leftNetworkEnabled(worker)) pageCannotStart = { error: failure }
    throw failure
  }
}

/** The failed start that left msw's network enabled in this page, if one did: every later start rejects with it. */
let pageCannotStart: { error: unknown } | undefined

/** msw 3's `NetworkReadyState.DISABLED` (msw 2 exports no such enum, and its worker has no `readyState`). */
const NETWORK_DISABLED = 0

/** Whether a failed start left the worker's network enabled (msw 3 enables it before the worker script is fetched). */
const leftNetworkEnabled = (worker: SetupWorker): boolean =>
  readsUnhandledFrame(worker) && Reflect.get(worker, 'readyState') !== NETWORK_DISABLED

type StartResult = Awaited<ReturnType<SetupWorker['start']>>

/**
 * msw's refusal to register its worker, with what to do: where no worker script is served, a dev server answers
 * its HTML page instead, and msw only says that the browser refused the MIME type (`text/html`) or found a 404.
 * Any other error is msw's as it was.
 */
function registrationFailed(error: unknown, url: string): unknown {
  if (!(error instanceof Error) || !/register/i.test(error.message)) return error
  return new Error(
    `agent-console-mock: msw's service worker could not be registered from ${url}: serve msw's worker script ` +
      "there, with mockServiceWorker() from 'agent-console-mock/vite' in the Vite (or Vitest) config's plugins, " +
      'or by running `npx msw init <public dir>` (again after upgrading msw); or give serviceWorkerUrl where it is ' +
      `served. msw said: ${error.message}`,
    { cause: error },
  )
}

/**
 * Whether the worker is msw 3's, which reads `onUnhandledFrame`. msw 3 builds `setupWorker` on its
 * network and exposes the network's `readyState`; msw 2's worker has no such property (the page
 * cannot read msw's package version).
 */
const readsUnhandledFrame = (worker: SetupWorker): boolean => 'readyState' in worker
