import { existsSync } from 'node:fs'
import { playwright } from '@vitest/browser-playwright'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { sourceAliases } from '../scripts/source-aliases.js'
// The plugin's source (a team writes `from 'agent-console-mock/vite'`): configs load before any build.
import { mockServiceWorker } from '../kits/vite/index.js'

/** Debian's Chromium (as test/e2e/playwright.config.ts), else Playwright's own; PLAYWRIGHT_CHROMIUM_PATH overrides both. */
const chromium =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

/**
 * `npm run test:browser`: test/browser in Vitest browser mode, in Chromium through the Playwright
 * provider, with agent-console-mock/vitest's `mock` fixture. `mockServiceWorker()` serves the
 * installed msw's worker script.
 */
export default defineConfig({
  // The project's root, not this folder: paths below are read from there.
  root: fileURLToPath(new URL('..', import.meta.url)),
  plugins: [mockServiceWorker()],
  // agent-console-mock/vitest and the others from their TypeScript sources (Vite's own conditions are kept).
  resolve: { alias: sourceAliases() },
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 30_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: chromium } }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
  },
})
