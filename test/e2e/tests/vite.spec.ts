/**
 * The Vite plugin in a real browser: a dev server of the fixture app (test/vite/fixture, which never
 * imports the mock) with `agentConsoleMock()`, whose page gets its answers from the worker.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { agentConsoleMock } from 'agent-console-mock/vite'
import { createServer, type ViteDevServer } from 'vite'

const fixture = fileURLToPath(new URL('../../vite/fixture', import.meta.url))
let vite: ViteDevServer
// Vite's dependency cache of its own, not the project's node_modules/.vite (the demo's).
const cacheDir = mkdtempSync(join(tmpdir(), 'agent-console-mock-vite-e2e-'))
let origin: string

test.beforeAll(async () => {
  vite = await createServer({
    root: fixture,
    configFile: false,
    cacheDir,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
    plugins: [agentConsoleMock({ seed: 7, personasPerTeam: 12 })],
  })
  await vite.listen()
  origin = new URL(vite.resolvedUrls?.local[0] ?? '').origin
})
test.afterAll(async () => {
  await vite.close()
  rmSync(cacheDir, { recursive: true, force: true })
})

test('the dev page gets its answers from the mock through the worker, before the app asks', async ({ page }) => {
  await page.goto(`${origin}/`)
  // A cold start pre-bundles msw, faker, zod and @msw/data first (Vite's dependency optimizer) and reloads the page.
  await expect(page.locator('#result')).toHaveText(/^seed 7: 12 personas, first [\w-]+$/, { timeout: 60_000 })
  const worker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)
  expect(worker, 'the page is controlled by the worker script the plugin serves').toBe(`${origin}/mockServiceWorker.js`)
})
