import type { Meta, StoryObj } from '@storybook/html-vite'
import { createBulkAddPanel } from '../bulk-add.js'
import { type PanelArgs, ROLES, renderPanel } from './panel.js'

/**
 * The bulk-add panel of the demo console: it writes. A value added in one story is gone in the next one
 * (and when the story is shown again): each story starts from a fresh fork of the seeded world.
 */
const meta: Meta<PanelArgs> = {
  title: 'Demo console/Bulk add',
  render: (args) => renderPanel(createBulkAddPanel, args),
  args: { role: 'super_admin' },
  argTypes: { role: { control: 'select', options: ROLES } },
}
export default meta

type Story = StoryObj<PanelArgs>

export const Seeded: Story = {}

/** The profile setting `bulkDuplicates: 'reject'`: a duplicate value answers 409 and nothing is added. */
export const RejectDuplicates: Story = {
  parameters: { agentConsoleMock: { profile: { bulkDuplicates: 'reject' } } },
}
