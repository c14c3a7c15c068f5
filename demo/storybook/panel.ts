/**
 * Renders one of the demo console's panels as demo/main.ts mounts it: the fixtures (ids, tokens) from
 * the mock's control API, then the panel with a role's token. Everything it shows comes through `fetch`,
 * answered by the story's own world.
 */
import type { Fixtures } from '../../factories/fixtures.js'
import { ApiClient } from '../api.js'
import type { DemoContext, Panel, Role } from '../context.js'
import { h } from '../ui.js'

export interface PanelArgs {
  /** The fixture token the panel sends ('' for none). */
  role: Role
}

export const ROLES: readonly Role[] = ['team_reader', 'persona_reader', 'super_admin', 'no_permissions', 'expired', '']

/** The story's element at once (Storybook's html renderer takes no promise); the panel once the fixtures loaded. */
export function renderPanel(create: (context: DemoContext) => Panel, { role }: PanelArgs): HTMLElement {
  const root = h('main', { class: 'panels' }, h('p', { class: 'loading', 'data-testid': 'loading' }, 'Loading…'))
  void mount(root, create, role)
  return root
}

async function mount(root: HTMLElement, create: (context: DemoContext) => Panel, role: Role): Promise<void> {
  const api = new ApiClient('')
  const loaded = await api.get<Fixtures>('/__mock/fixtures')
  if (!loaded.ok) {
    const detail = `GET /__mock/fixtures answered ${loaded.status}: ${String(loaded.detail)}`
    root.replaceChildren(h('div', { class: 'fatal', 'data-testid': 'fatal' }, detail))
    return
  }
  const fixtures = loaded.data
  api.token = role ? fixtures.tokens[role] : undefined
  root.replaceChildren(create({ mode: 'worker', api, fixtures, role: () => role }).element)
}
