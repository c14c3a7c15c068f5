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
    // The document's path from the fixture's root: read as the dev server starts.
    plugins: [agentConsoleMock({ seed: 7, personasPerTeam: 12, openapi: '../../openapi/openapi-3.0.json' })],
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

test("the dev page's worker answers a team's own OpenAPI document, given as a file", async ({ page }) => {
  await page.goto(`${origin}/`)
  await expect(page.locator('#result')).toHaveText(/^seed 7:/, { timeout: 60_000 })
  const answers = await page.evaluate(async () => {
    const { tokens } = await (await fetch('/__mock/fixtures')).json()
    const headers = { authorization: `Bearer ${tokens.team_reader}`, 'content-type': 'application/json' }
    const agent = { name: 'Triage', kind: 'assistant', config: { model: 'gpt-4o' }, tags: ['support'] }
    const created = await fetch('/v1/agents/', { method: 'POST', headers, body: JSON.stringify(agent) })
    const { id } = await created.json()
    const list = await (await fetch('/v1/agents/', { headers })).json()
    const gone = await fetch(`/v1/agents/${id}`, { method: 'DELETE', headers })
    return { created: created.status, listed: list.results.map((one: { id: string }) => one.id), gone: gone.status }
  })
  expect(answers.created).toBe(201)
  expect(answers.listed, 'five seeded and the one created').toHaveLength(6)
  expect(answers.gone).toBe(204)
})
