import type { Preview } from '@storybook/html-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { mockBeforeEach, setupStoryWorker } from 'agent-console-mock/storybook'
import '../../style.css'

const preview: Preview = {
  // msw's worker, started by the addon with the kit's setup: quiet about Storybook's own requests on msw 2 and 3.
  loaders: [mswLoader(setupStoryWorker)],
  // Every story: a fresh world of seed 1 with 30 personas a team (a story's parameters.agentConsoleMock wins).
  beforeEach: mockBeforeEach({ seed: 1, personasPerTeam: 30 }),
}

export default preview
