import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { sourceAliases } from '../scripts/source-aliases.js'

/**
 * Three tiers, as vitest projects (`vitest run --project unit|node|process`), and `msw`, the node tier
 * less the verifier's tests and the server's state machinery, for the runs on other platforms:
 * - `unit`: test/unit, pure functions: no servers.
 * - `node`: the mock in this process: the API, the hosts (setupServer, the Express app on a
 *   loopback port, Vite), the verifier against an in-process mock. The msw matrix runs this tier.
 * - `process`: what runs other processes: the built CLI, real FastAPI (Debian's Python), npm
 *   pack and a consumer app, Playwright, kill -9 and disk faults, and the reliability suite.
 * `node` and `process` build dist/ first (global setup: esbuild, well under a second).
 * test/browser runs in Chromium, in its own config (test/vitest.browser.config.ts, `npm run test:browser`).
 */
/** What other tiers run: pure functions, Chromium, Playwright. */
const NOT_NODE = ['test/unit/**', 'test/browser/**', 'test/e2e/**']
const PROCESS_TESTS = [
  'test/cli/**/*.test.ts',
  'test/consumer/**/*.test.ts',
  'test/fastapi/**/*.test.ts',
  'test/reliability/**/*.test.ts',
  'test/contract/command.test.ts',
  'test/contract/preconditions.test.ts',
  'test/node/determinism.test.ts',
  // Runs Playwright (and Chromium) on the built fixture: the in-process tiers then need no browser.
  'test/node/kits-playwright-options.test.ts',
]
/**
 * The in-process tiers' workers run their test files one after another in one module graph, instead of importing
 * msw, the core and Faker anew for each file: those imports took a third of the node tier's time. Each of these
 * files closes the mocks and servers it starts and restores what it spies on, so the next file meets none of it.
 * The process tier stays isolated: its files mostly wait on other processes, so one graph saved it nothing, and two
 * of its files, which assert that nothing in their process logged an error, saw another file's errors in one.
 */
const ISOLATE_EACH_FILE = false
/**
 * The server's own state machinery: the memory budget's accounting, streamed exports and imports, the state file,
 * the scenarios' seeding. They reach msw only as any API request does, which the other files cover, and seed worlds
 * of tens of thousands of personas: half of the node tier's time on another platform. The node tier runs them; the
 * msw tier does not.
 */
const STATE_MACHINERY = [
  'test/server/memory-budget.test.ts',
  'test/server/memory-budget-at-once.test.ts',
  'test/server/state-stream.test.ts',
  'test/server/persistence.test.ts',
  'test/server/scenarios.test.ts',
]
export default defineConfig({
  // The project's root, not this folder: paths below are read from there.
  root: fileURLToPath(new URL('..', import.meta.url)),
  // The package's own names (agent-console-mock/node, ...) resolve to the TypeScript sources, so
  // tests go through the public exports without a build step.
  resolve: { alias: sourceAliases() },
  test: {
    testTimeout: 30_000,
    // As many test files at once as cores. Vitest's default for a run is one less, so a single file at a time on
    // a 2-core machine, where the tiers then leave a core idle: the process tier's tests mostly wait on the
    // processes they start, and the in-process tiers' on the loopback.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: ISOLATE_EACH_FILE },
      },
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...NOT_NODE, ...PROCESS_TESTS, '**/node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          isolate: ISOLATE_EACH_FILE,
        },
      },
      {
        extends: true,
        test: { name: 'process', include: PROCESS_TESTS, globalSetup: ['test/global-setup-package.ts'] },
      },
      {
        // The node tier less the verifier's tests (the verifier loads no msw: scripts/check-layers.mjs) and the
        // state machinery: the other platforms' runs (scripts/test-platform.sh) leave them out.
        extends: true,
        test: {
          name: 'msw',
          include: ['test/**/*.test.ts'],
          exclude: [...NOT_NODE, ...PROCESS_TESTS, ...STATE_MACHINERY, 'test/contract/**', '**/node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          isolate: ISOLATE_EACH_FILE,
        },
      },
    ],
  },
})
