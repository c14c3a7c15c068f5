import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Connect, Plugin, ResolvedConfig } from 'vite'
import { readOpenApi } from '../../node/openapi-source.js'
import { START_ID, startBeforeApp, startModule } from './html.js'
import { checkPluginOptions, type MockPluginOptions, pluginOptionError } from './options.js'

export type { MockPluginOptions } from './options.js'

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
  const { mockServer, openapi, ...workerOptions } = options
  const workerScript = createRequire(import.meta.url).resolve(`msw/${WORKER_SCRIPT}`)
  let config: ResolvedConfig | undefined
  /** Where the document is read from as the dev server starts (a file or URL); else it is given parsed. */
  const source = typeof openapi === 'string' || openapi instanceof URL ? openapi : undefined
  /** The document as the page gets it: parsed JSON. */
  let document = source === undefined ? openapi : undefined
  const workerUrl = () => `${config?.base ?? '/'}${WORKER_SCRIPT}`
  const pageOptions = () => (document ? { ...workerOptions, openapi: document } : workerOptions)
  /** The page rewritten to start the mock first; a warning names what could not be held back. */
  const heldBack = async (html: string, path: string): Promise<string> => {
    const started = await startBeforeApp(html)
    if (started.unheld > 0)
      config?.logger.warn(
        `agent-console-mock: ${path} has ${started.unheld} inline module script(s) with static imports, which run ` +
          'before the mock starts (a static import runs before any await): load that code by src ' +
          '(<script type="module" src="/main.ts">) so the plugin can hold it back.',
        { timestamp: true },
      )
    return started.html
  }
  return {
    name: 'agent-console-mock',
    apply: 'serve',
    config: () =>
      mockServer ? { server: { proxy: { '/v1': proxyTo(mockServer), '/__mock': proxyTo(mockServer) } } } : undefined,
    configResolved(resolved) {
      checkPluginOptions(options)
      config = resolved
    },
    async buildStart() {
      if (mockServer || source === undefined || document) return
      const root = config?.root ?? process.cwd()
      document = await readOpenApi(documentSource(source, root)).catch((error: unknown) => {
        throw unreadableDocument(error, source, root)
      })
    },
    configureServer(server) {
      server.middlewares.use(serveWorkerScript(workerScript, workerUrl))
    },
    resolveId: (id) => (id === START_ID ? RESOLVED_START_ID : undefined),
    load: (id) => (id === RESOLVED_START_ID ? startModule(browserEntry(), pageOptions(), workerUrl()) : undefined),
    transformIndexHtml: {
      order: 'pre',
      handler: (html, context) => (mockServer ? html : heldBack(html, context.path)),
    },
  }
}

/**
 * The standalone server behind Vite's dev server. `changeOrigin` sends the server its own name (it answers loopback
 * and its own names only, so a page served on a LAN address still reaches it); `autoRewrite` then points its
 * redirects (the 307 to a path with its trailing slash) back at the dev server, as they would be were the page's
 * `Host` sent: a redirect to the server's own origin would be another origin, where the browser drops
 * `Authorization` and the request comes back 401.
 */
const proxyTo = (target: string) => ({ target, changeOrigin: true, autoRewrite: true })

/**
 * Why the `openapi` document could not be read, naming the plugin; for a relative path, where it was looked for
 * (Vite's root, which need not be the folder `vite` was started in).
 */
function unreadableDocument(error: unknown, source: string | URL, root: string): Error {
  const why = (error as Error).message.replace(/\.$/, '')
  const relative = typeof source === 'string' && documentSource(source, root) !== source
  const where = relative ? ` (openapi's relative path ${JSON.stringify(source)} is read from Vite's root, ${root})` : ''
  return pluginOptionError(`${why}${where}.`, error)
}

/** A document's URL as given, or its file's path from Vite's root. */
function documentSource(source: string | URL, root: string): string | URL {
  if (source instanceof URL || /^https?:\/\//i.test(source)) return source
  return isAbsolute(source) ? source : resolve(root, source)
}
