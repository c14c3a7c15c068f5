import type { Meta, StoryObj } from '@storybook/html-vite'
import { createPersonasPanel } from '../personas.js'
import { type PanelArgs, ROLES, renderPanel } from './panel.js'

/** The personas panel of the demo console, over each story's own world. */
const meta: Meta<PanelArgs> = {
  title: 'Demo console/Personas',
  render: (args) => renderPanel(createPersonasPanel, args),
  args: { role: 'team_reader' },
  argTypes: { role: { control: 'select', options: ROLES } },
}
export default meta

type Story = StoryObj<PanelArgs>

/** The seeded world of the preview (seed 1, 30 personas a team). */
export const Seeded: Story = {}

/** A scenario: the first team, the token's, has no personas. */
export const EmptyTeam: Story = {
  parameters: { agentConsoleMock: { scenario: 'empty-team' } },
}

/** A typed override: the API refuses the list with its own 403. */
export const Forbidden: Story = {
  parameters: { agentConsoleMock: { overrides: { list_personas: { error: 'forbidden' } } } },
}

/** An override that is a function of the parsed request: one page of a persona made up for it. */
export const OverrideFunction: Story = {
  parameters: {
    agentConsoleMock: {
      overrides: {
        list_personas: ({ query, world }) => ({
          body: { results: world.personas.all().slice(0, 1), total: 1 + query.offset },
        }),
      },
    },
  },
}

/** Data arranged for the story with the factories, in a world of another seed. */
export const Arranged: Story = {
  parameters: {
    agentConsoleMock: {
      seed: 7,
      arrange: async (mock) => {
        await mock.create.persona({ team_id: mock.fixtures.teams[0]?.id, name: 'Ada Storybook', role: 'Auditor' })
      },
    },
  },
}
