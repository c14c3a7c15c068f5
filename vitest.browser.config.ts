import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
// The plugin's source (a team writes `from 'agent-console-mock/vite'`): configs load before any build.
import { mockServiceWorker } from './hosts/vite/index.js'

/**
 * `npm run test:browser`: test/browser in Vitest browser mode, in Debian's Chromium through the
 * Playwright provider (`PLAYWRIGHT_CHROMIUM_PATH` overrides the path), with agent-console-mock/vitest's
 * `mock` fixture. `mockServiceWorker()` serves the installed msw's worker script.
 */
export default defineConfig({
  plugins: [mockServiceWorker()],
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 30_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: { executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium' },
      }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
  },
})
