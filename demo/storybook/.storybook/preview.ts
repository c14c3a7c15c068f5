import type { Preview } from '@storybook/html-vite'
import { mockBeforeEach } from 'agent-console-mock/storybook'
import '../../style.css'

const preview: Preview = {
  // Every story: a fresh world of seed 1 with 30 personas a team (a story's parameters.agentConsoleMock wins).
  beforeEach: mockBeforeEach({ seed: 1, personasPerTeam: 30 }),
}

export default preview
