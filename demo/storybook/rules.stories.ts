import type { Meta, StoryObj } from '@storybook/html-vite'
import { createRulesPanel } from '../rules.js'
import { type PanelArgs, ROLES, renderPanel } from './panel.js'

/** The policy rules panel of the demo console, over each story's own world. */
const meta: Meta<PanelArgs> = {
  title: 'Demo console/Policy rules',
  render: (args) => renderPanel(createRulesPanel, args),
  args: { role: 'team_reader' },
  argTypes: { role: { control: 'select', options: ROLES } },
}
export default meta

type Story = StoryObj<PanelArgs>

/** The first policy's rules in the seeded world. */
export const Seeded: Story = {}

/** A typed override with the real server's error shape: 404 `Policy not found`. */
export const PolicyNotFound: Story = {
  parameters: { agentConsoleMock: { overrides: { list_policy_rules: { error: 'not_found' } } } },
}

/** A status and a body of our own: a policy without rules. */
export const NoRules: Story = {
  parameters: {
    agentConsoleMock: { overrides: { list_policy_rules: { status: 200, body: { results: [], total: 0 } } } },
  },
}
