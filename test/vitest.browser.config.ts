import { existsSync } from 'node:fs'
import { playwright } from '@vitest/browser-playwright'
import { fileURLToPath } from 'node:url'
import { defaultClientConditions } from 'vite'
import { defineConfig } from 'vitest/config'
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
  // The project's root, not this folder: paths below (and the `source` exports) are read from there.
  root: fileURLToPath(new URL('..', import.meta.url)),
  plugins: [mockServiceWorker()],
  // Vite's own conditions too, which a list given here replaces: without 'browser', msw 3's
  // @mswjs/interceptors resolves to its Node build in the page, and that imports CommonJS `debug`.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
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
