/**
 * The `mock` fixture's own test (tests/fixture.spec.ts) alone: no web server and no demo build, only the
 * package's dist/ (`node scripts/build.mjs`). So it runs wherever the fixture must, msw 3 on Node 22 included:
 * `node scripts/build.mjs && npx playwright test -c test/e2e/fixture.config.ts`.
 * The full e2e config (playwright.config.ts) runs the same spec with the demo's tests.
 */
import { defineConfig } from '@playwright/test'
import { launchOptions } from './support/chromium.js'

export default defineConfig({
  testDir: './tests',
  testMatch: /fixture\.spec\.ts$/,
  outputDir: './test-results/fixture',
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: 'list',
  use: { launchOptions },
})
