/**
 * The demo's Vite config: `npx vite --config demo/vite.config.ts` (dev) or
 * `npx vite build --config demo/vite.config.ts` (into dist-demo/). Vite resolves the
 * project's `.js` import specifiers to the `.ts` sources by itself (for TS importers).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))
const require = createRequire(import.meta.url)

/**
 * Serves msw's worker script at `/mockServiceWorker.js` in dev and emits it into the build,
 * always the copy of the installed msw: a worker script of another msw version refuses to
 * talk to the library (`npx msw init` would leave a copy to keep in step by hand).
 */
function mockServiceWorker(): Plugin {
  const file = require.resolve('msw/mockServiceWorker.js')
  return {
    name: 'agent-console-mock:service-worker',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_request, response) => {
        response.setHeader('content-type', 'text/javascript; charset=utf-8')
        response.end(readFileSync(file))
      })
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source: readFileSync(file, 'utf8') })
    },
  }
}

export default defineConfig({
  root,
  // Loopback only (the test config points at 127.0.0.1); `localhost` may resolve to ::1.
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: fileURLToPath(new URL('../dist-demo', import.meta.url)),
    emptyOutDir: true,
    // The in-browser mock (faker's data, zod, msw) is one chunk past Vite's default warning size, loaded in worker mode only.
    chunkSizeWarningLimit: 1500,
  },
  plugins: [mockServiceWorker()],
})
