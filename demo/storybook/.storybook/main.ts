/**
 * The repository's Storybook: stories of the demo console's panels, each with a world of its own
 * (agent-console-mock/storybook). `npm run storybook` (dev), `npm run storybook:build` (static, into
 * dist-storybook/, what test/e2e/tests/storybook.spec.ts drives).
 */
import { createRequire } from 'node:module'
import type { StorybookConfig } from '@storybook/html-vite'
import { mergeConfig } from 'vite'
import { sourceAliases } from '../../../scripts/source-aliases.js'

const config: StorybookConfig = {
  framework: '@storybook/html-vite',
  stories: ['../*.stories.ts'],
  // msw's worker script of the installed msw, served at /mockServiceWorker.js (dev) and copied into the
  // static build: the addon's worker registers it there. No `npx msw init`, no copy in the repository.
  staticDirs: [createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // agent-console-mock/storybook from its TypeScript source (an alias per export name), as a team's
  // Storybook would import the installed package's build; a fresh clone needs no dist/.
  viteFinal: (vite) =>
    mergeConfig(vite, {
      resolve: { alias: sourceAliases() },
      // The preview bundles the mock (faker's data, zod, msw) into one chunk past Vite's default warning size, as the demo does.
      build: { chunkSizeWarningLimit: 2000 },
    }),
}

export default config
