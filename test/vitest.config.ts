import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Two tiers, as vitest projects (`vitest run --project unit|node`; `npm test` runs both):
 * - `unit`: test/unit, pure functions: no servers, no build.
 * - `node`: everything else under test/ (node, server, cli, contract, reliability), which
 *   starts mocks and servers and runs the built CLI, so it builds dist/ first (global setup,
 *   incremental: a no-op when nothing changed).
 * test/browser runs in Chromium, in its own config (test/vitest.browser.config.ts, `npm run test:browser`).
 */
export default defineConfig({
  // The project's root, not this folder: paths below (and the `source` exports) are read from there.
  root: fileURLToPath(new URL('..', import.meta.url)),
  // Resolve the package's own subpaths (agent-console-mock/node, ...) to the TypeScript
  // sources, so tests go through the public exports without a build step.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/browser/**', '**/node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
})
