/**
 * End-to-end tests of the demo page (browser/demo) in its three modes:
 * `npm run build && npx playwright test -c e2e/playwright.config.ts`.
 * Two web servers: the built demo (vite preview, :4173) and the standalone mock (:4174,
 * from dist/, so `npm run build` must have run).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'
import { API_URL, CONTRACT_FILE, DEMO_URL } from './support/servers.js'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

/**
 * The system Chromium where there is one (Playwright's own browsers may not be downloadable,
 * e.g. offline or on Debian images), else Playwright's. PLAYWRIGHT_CHROMIUM_PATH overrides both.
 */
const executablePath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

export default defineConfig<{ recordContract?: string }>({
  testDir: './tests',
  outputDir: './test-results',
  workers: 2,
  // Tests of one file run in parallel too: each has its own browser context, and in server
  // mode its own X-Mock-Session, so none sees another's writes.
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: './report' }]],
  // The demo's tests first; then the contract their `mock` fixtures recorded is replayed (contract.spec.ts).
  projects: [
    { name: 'demo', testIgnore: /contract\.spec\.ts$/ },
    { name: 'contract', testMatch: /contract\.spec\.ts$/, dependencies: ['demo'] },
  ],
  use: {
    recordContract: CONTRACT_FILE,
    ...devices['Desktop Chrome'],
    baseURL: DEMO_URL,
    viewport: { width: 1280, height: 900 },
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      // Built, then served as a user would get it (the service worker script included).
      command:
        'npx vite build --config demo/vite.config.ts && npx vite preview --config demo/vite.config.ts --port 4173 --strictPort',
      cwd: projectRoot,
      url: DEMO_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node dist/hosts/server/cli.js --port 4174 --quiet',
      cwd: projectRoot,
      url: `${API_URL}/__mock/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      stderr: 'pipe',
    },
  ],
})
