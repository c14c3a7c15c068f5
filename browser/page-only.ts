/**
 * The entries that run only in a page (a browser's), and what each says when Node runs it, instead of msw's
 * `Failed to execute 'setupWorker' in a non-browser environment` or Node's `ERR_PACKAGE_PATH_NOT_EXPORTED`:
 * - Node's own resolver (`node`, Playwright's runner) reads package.json's `node-addons` condition, which only Node
 *   sets, and loads kits/in-node/<entry>.js, which throws the entry's sentence;
 * - Vite's resolver (Vitest's Node, jsdom and happy-dom tests; SSR) skips `"node": null` and loads the entry itself,
 *   as it always did (a module may import it without starting a worker): starting msw's worker there throws it.
 *
 * `msw/browser` is imported when a worker is made, not with the entry: msw 3 exports it to no Node (`"node": null`,
 * first among its conditions), and Vitest hands a package's built files to Node's own resolver, so a static import
 * failed the import of the entry itself, in a test that only imports a module that imports it.
 */
import type { SetupWorker } from 'msw/browser'
import type { RequestHandler } from 'msw'
import { inNodeMessage, type PageOnlyEntry } from './in-node.js'

/** msw's `setupWorker`, loaded for one entry: it throws the entry's sentence where msw refuses Node. */
export type PageWorkerFactory = (...handlers: RequestHandler[]) => SetupWorker

/**
 * Loads msw's `setupWorker` for `entry`. In Node msw refuses with an error that names neither the entry nor what to
 * use instead (msw 3: Node's `ERR_PACKAGE_PATH_NOT_EXPORTED` for `msw/browser`; msw 2: an invariant when the worker
 * is made): this says both, with msw's refusal as the cause.
 */
export async function loadSetupWorker(entry: PageOnlyEntry): Promise<PageWorkerFactory> {
  let msw: typeof import('msw/browser')
  try {
    msw = await import('msw/browser')
  } catch (error) {
    throw inThePageOnly(entry, error)
  }
  return (...handlers) => {
    try {
      return msw.setupWorker(...handlers)
    } catch (error) {
      throw inThePageOnly(entry, error)
    }
  }
}

/** Makes msw's worker for `entry` (see {@link loadSetupWorker}). */
export async function setupWorkerInThePage(entry: PageOnlyEntry, ...handlers: RequestHandler[]): Promise<SetupWorker> {
  return (await loadSetupWorker(entry))(...handlers)
}

/** msw's refusal, or, in Node, the entry's sentence with msw's refusal as the cause. */
function inThePageOnly(entry: PageOnlyEntry, error: unknown): unknown {
  return runsInNode() ? new Error(inNodeMessage(entry), { cause: error }) : error
}

/** Whether this is Node (jsdom and happy-dom included), read off `globalThis`: the page's code has no Node types. */
const runsInNode = (): boolean =>
  typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string'
