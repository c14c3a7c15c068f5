import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, afterEach, expect, it } from 'vitest'
import { mockServiceWorker } from 'agent-console-mock/vite'

const fixture = fileURLToPath(new URL('./fixture', import.meta.url))
const servers: ViteDevServer[] = []
const cacheDir = mkdtempSync(join(tmpdir(), 'agent-console-mock-vite-worker-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

/** A dev server of the fixture app with only `mockServiceWorker()` (what a Vitest browser-mode config adds). */
async function devServer(base = '/'): Promise<string> {
  const vite = await createServer({
    root: fixture,
    base,
    configFile: false,
    cacheDir,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true },
    plugins: [mockServiceWorker()],
  })
  servers.push(vite)
  await vite.listen()
  const url = vite.resolvedUrls?.local[0]
  if (!url) throw new Error('the dev server has no local URL')
  return new URL(url).origin
}

const script = () => readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'))

it('serves the worker script of the msw the mock runs on, byte for byte, under the base', async () => {
  const url = await devServer('/app/')
  const response = await fetch(`${url}/app/mockServiceWorker.js`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
  expect(Buffer.from(await response.arrayBuffer()).equals(script()), 'msw/mockServiceWorker.js').toBe(true)
})

it('leaves the page alone: no start module, no rewritten scripts', async () => {
  const url = await devServer()
  const page = await (await fetch(`${url}/`)).text()
  expect(page).not.toContain('agent-console-mock')
  expect(page).toContain('src="/main.js"')
})
