import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Resolve the package's own subpaths (agent-console-mock/node, ...) to the TypeScript
  // sources, so tests go through the public exports without a build step.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
  },
})
