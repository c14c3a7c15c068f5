/**
 * The entries that run only in a page (a browser's), and what each says when Node runs it, instead of msw's
 * `Failed to execute 'setupWorker' in a non-browser environment` or Node's `ERR_PACKAGE_PATH_NOT_EXPORTED`:
 * - Node's own resolver (`node`, Playwright's runner) reads package.json's `node-addons` condition, which only Node
 *   sets, and loads kits/in-node/<entry>.js, which throws the entry's sentence;
 * - Vite's resolver (Vitest's Node, jsdom and happy-dom tests; SSR) skips `"node": null` and loads the entry itself,
 *   as it always did (a module may import it without starting a worker): starting msw's worker there throws it.
 */
import { setupWorker, type SetupWorker } from 'msw/browser'
import type { RequestHandler } from 'msw'
import { inNodeMessage, type PageOnlyEntry } from './in-node.js'

/**
 * msw's `setupWorker`, for `entry`. In Node msw refuses with an invariant that names neither the entry nor what to
 * use instead: this says both, with msw's refusal as the cause.
 */
export function setupWorkerInThePage(entry: PageOnlyEntry, ...handlers: RequestHandler[]): SetupWorker {
  try {
    return setupWorker(...handlers)
  } catch (error) {
    if (!runsInNode()) throw error
    throw new Error(inNodeMessage(entry), { cause: error })
  }
}

/** Whether this is Node (jsdom and happy-dom included), read off `globalThis`: the page's code has no Node types. */
const runsInNode = (): boolean =>
  typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string'
