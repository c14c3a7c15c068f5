import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Connect, Plugin, ResolvedConfig } from 'vite'
import type { MockOptions } from '../../core/instance/handle.js'
import { START_ID, startBeforeApp, startModule } from './html.js'

/**
 * What `startMockWorker` takes, as JSON: the options reach the page as text in the start module, so
 * anything that is code (custom `scenarios`) cannot be given here.
 */
export interface MockPluginOptions extends Omit<MockOptions, 'scenarios'> {
  /**
   * A running standalone server (`npx agent-console-mock`) to send `/v1` and `/__mock` to, through Vite's
   * `server.proxy`, instead of starting the worker in the page. E.g. `'http://127.0.0.1:4010'`.
   */
  mockServer?: string
  /** Milliseconds added before every API answer (worker). @default 0 */
  delayMs?: number
  /** Keep the world across page reloads in `localStorage` (worker; see `startMockWorker`). @default false */
  persist?: boolean | string
  /** Don't log "Mocking enabled" and the mocked requests (worker). @default true */
  quiet?: boolean
}

const RESOLVED_START_ID = `\0${START_ID}`
const WORKER_SCRIPT = 'mockServiceWorker.js'

/** The browser host beside this file: the TypeScript source in the repository, the built file when installed. */
function browserEntry(): string {
  const candidates = ['../../browser/index.ts', '../../browser/index.js'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  )
  const found = candidates.find((file) => existsSync(file))
  if (!found)
    throw new Error(`agent-console-mock/vite: the browser host is missing (looked for ${candidates.join(', ')})`)
  return found
}

/** A middleware answering `url()` with the worker script's bytes (read at each request: an upgraded msw is served at once). */
const serveWorkerScript =
  (file: string, url: () => string): Connect.NextHandleFunction =>
  (request, response, next) => {
    if (request.url?.split('?')[0] !== url()) return next()
    response.setHeader('content-type', 'text/javascript; charset=utf-8')
    response.setHeader('cache-control', 'no-cache')
    response.end(readFileSync(file))
  }

/**
 * Only the worker script: msw's own `mockServiceWorker.js` (the msw the mock runs on) at
 * `/mockServiceWorker.js` under `base`, in the dev server and in Vitest browser mode, with no
 * `npx msw init` and no copy in the repository. What `agent-console-mock/vitest` needs in the Vitest config.
 * @example
 * // test/vitest.config.ts
 * export default defineConfig({ plugins: [mockServiceWorker()], test: { browser: { ... } } })
 */
export function mockServiceWorker(): Plugin {
  const workerScript = createRequire(import.meta.url).resolve(`msw/${WORKER_SCRIPT}`)
  let base = '/'
  return {
    name: 'agent-console-mock:worker-script',
    apply: 'serve',
    configResolved(resolved) {
      base = resolved.base
    },
    configureServer(server) {
      server.middlewares.use(serveWorkerScript(workerScript, () => `${base}${WORKER_SCRIPT}`))
    },
  }
}

/**
 * The mock in a Vite app's dev server, and nothing of it in the production build. `vite` (dev)
 * serves msw's own worker script at `/mockServiceWorker.js` (no `npx msw init`, never another msw's)
 * and starts the mock in the page before the app's module scripts run, with these options and the
 * page's `?scenario=`; or, given `mockServer`, proxies `/v1` and `/__mock` to a standalone server and
 * starts no worker. `vite build` is not touched: the app's code never imports the mock.
 * @example
 * // vite.config.ts
 * import { defineConfig } from 'vite'
 * import { agentConsoleMock } from 'agent-console-mock/vite'
 * export default defineConfig({ plugins: [agentConsoleMock({ seed: 1, personasPerTeam: 200 })] })
 */
export function agentConsoleMock(options: MockPluginOptions = {}): Plugin {
  const { mockServer, ...workerOptions } = options
  const workerScript = createRequire(import.meta.url).resolve(`msw/${WORKER_SCRIPT}`)
  let config: ResolvedConfig | undefined
  const workerUrl = () => `${config?.base ?? '/'}${WORKER_SCRIPT}`
  return {
    name: 'agent-console-mock',
    apply: 'serve',
    config: () => (mockServer ? { server: { proxy: { '/v1': mockServer, '/__mock': mockServer } } } : undefined),
    configResolved(resolved) {
      config = resolved
    },
    configureServer(server) {
      server.middlewares.use(serveWorkerScript(workerScript, workerUrl))
    },
    resolveId: (id) => (id === START_ID ? RESOLVED_START_ID : undefined),
    load: (id) => (id === RESOLVED_START_ID ? startModule(browserEntry(), workerOptions, workerUrl()) : undefined),
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => (mockServer ? html : startBeforeApp(html)),
    },
  }
}
