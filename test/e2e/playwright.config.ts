/**
 * End-to-end tests of the demo page (browser/demo) in its three modes, and of the Storybook of its panels:
 * `npm run build && npx playwright test -c test/e2e/playwright.config.ts`.
 * Three web servers: the built demo (vite preview, :4173), the standalone mock (:4174, from dist/, so
 * `npm run build` must have run) and Storybook's static build (vite preview of dist-storybook/, :4175).
 */
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'
import type { MockFixtureOptions } from 'agent-console-mock/playwright'
import { launchOptions } from './support/chromium.js'
import { API_URL, CONTRACT_FILE, DEMO_URL, STORYBOOK_URL } from './support/servers.js'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

export default defineConfig<MockFixtureOptions>({
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
    // A picture of each failure; the main screens' own are written by their tests (test/e2e/screenshots/).
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions,
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
      // Storybook's static build, served as files (a Storybook deployed to a static host).
      command:
        'npm run storybook:build && npx vite preview --outDir dist-storybook --host 127.0.0.1 --port 4175 --strictPort',
      cwd: projectRoot,
      url: `${STORYBOOK_URL}/iframe.html`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node dist/server/cli.js --port 4174 --quiet',
      cwd: projectRoot,
      url: `${API_URL}/__mock/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      stderr: 'pipe',
    },
  ],
})
