/**
 * The demo's entry: picks the mode from the URL, starts the in-browser mock when asked to,
 * loads the fixtures (ids and tokens of the seeded world) and mounts the three panels, and a fourth
 * listing the operations served from a team's OpenAPI document when the mock serves one.
 *
 *   ?mode=worker (default) [&seed=1]   msw's service worker answers, no server at all
 *   ?mode=server&api=<origin> [&session=<key>]   a running mock server answers (CORS)
 *   ?mode=network                       relative requests, answered by whatever intercepts
 *                                       them (the Playwright fixture)
 *   &role=<fixture token name|none>     the role to start with (default team_reader)
 *   &scenario=<names>                   the scenarios the world is in (the picker sets it)
 */
import type { Fixtures } from '../factories/fixtures.js'
import { ApiClient } from './api.js'
import { createBulkAddPanel } from './bulk-add.js'
import type { DemoContext, Mode, Role } from './context.js'
import { createPersonasPanel } from './personas.js'
import { createRulesPanel } from './rules.js'
import { createScenarioPicker, selectWantedScenario } from './scenarios.js'
import { createServedPanel } from './served.js'
import { h } from './ui.js'

const ROLES: ReadonlyArray<{ role: Role; label: string }> = [
  { role: 'team_reader', label: 'Team reader (persona:read, policy:read)' },
  { role: 'persona_reader', label: 'Persona reader (persona:read)' },
  { role: 'super_admin', label: 'Super admin' },
  { role: 'no_permissions', label: 'No permissions' },
  { role: 'expired', label: 'Expired token' },
  { role: '', label: 'No token' },
]

async function main() {
  const params = new URLSearchParams(location.search)
  const mode = parseMode(params.get('mode'))
  const root = document.getElementById('app') as HTMLElement

  if (mode === 'worker') {
    // Imported only in this mode, so the other modes never load the mock (faker, the world):
    // what they show comes from the server or the test. Awaited before the first request,
    // or the page's first fetch would race the service worker's activation. It starts with
    // the scenarios of the page URL's ?scenario=.
    const { startMockWorker } = await import('../browser/index.js')
    const seed = Number.parseInt(params.get('seed') ?? '1', 10)
    await startMockWorker({ seed: Number.isFinite(seed) ? seed : 1, persist: true })
  }

  const base = mode === 'server' ? (params.get('api') ?? 'http://127.0.0.1:4010').replace(/\/+$/, '') : ''
  const api = new ApiClient(base, params.get('session') ?? undefined)

  const refused = await selectWantedScenario(mode, api, params.get('scenario') ?? undefined)
  if (refused) {
    root.replaceChildren(
      h(
        'div',
        { class: 'fatal', 'data-testid': 'fatal' },
        h('h2', {}, 'Cannot select the scenario'),
        h('p', {}, `PUT ${base}/__mock/scenario answered ${refused.status}: ${String(refused.detail)}`),
      ),
    )
    return
  }

  const loaded = await api.get<Fixtures>('/__mock/fixtures')
  if (!loaded.ok) {
    root.replaceChildren(
      h(
        'div',
        { class: 'fatal', 'data-testid': 'fatal' },
        h('h2', {}, 'Cannot load the fixtures'),
        h('p', {}, `GET ${base}/__mock/fixtures answered ${loaded.status}: ${String(loaded.detail)}`),
        mode === 'server' ? h('p', {}, 'Is the mock server running? Start it with npm start.') : null,
      ),
    )
    return
  }

  const roleSelect = h(
    'select',
    { 'data-testid': 'role-select', id: 'role' },
    ...ROLES.map(({ role, label }) => h('option', { value: role }, label)),
  )
  const wanted = params.get('role')
  roleSelect.value = wanted === 'none' ? '' : ROLES.some((r) => r.role === wanted) ? (wanted as Role) : 'team_reader'

  const scenarioSelect = await createScenarioPicker(api)

  const fixtures = loaded.data
  const context: DemoContext = { mode, api, fixtures, role: () => roleSelect.value as Role }
  const applyRole = () =>
    (api.token = context.role() ? fixtures.tokens[context.role() as Exclude<Role, ''>] : undefined)
  applyRole()

  const served = await createServedPanel(context)
  const panels = [createPersonasPanel(context), createRulesPanel(context), createBulkAddPanel(context)]
  if (served) panels.push(served)
  roleSelect.addEventListener('change', () => {
    applyRole()
    for (const panel of panels) panel.refresh()
  })

  const where =
    mode === 'server'
      ? `${base}${api.session ? ` · session ${api.session}` : ''}`
      : mode === 'worker'
        ? `service worker · seed ${fixtures.seed}`
        : 'intercepted by the test'
  root.replaceChildren(
    h(
      'header',
      { class: 'topbar' },
      h('h1', {}, 'Agent Management Console', h('span', { class: 'subtitle' }, ' mock demo')),
      h('span', { class: `mode mode-${mode}`, 'data-testid': 'mode', title: where }, mode),
      h('span', { class: 'where', 'data-testid': 'where' }, where),
      scenarioSelect && h('label', { class: 'role', for: 'scenario' }, 'Scenario ', scenarioSelect),
      h('label', { class: 'role', for: 'role' }, 'Role ', roleSelect),
    ),
    h('main', { class: 'panels' }, ...panels.map((panel) => panel.element)),
  )
  document.body.dataset.ready = 'true'
}

function parseMode(value: string | null): Mode {
  return value === 'server' || value === 'network' ? value : 'worker'
}

main().catch((error: unknown) => {
  console.error(error)
  document
    .getElementById('app')
    ?.replaceChildren(
      h(
        'div',
        { class: 'fatal', 'data-testid': 'fatal' },
        h('h2', {}, 'The demo failed to start'),
        h('pre', {}, String((error as Error)?.stack ?? error)),
      ),
    )
})
