/**
 * Personas: `GET /v1/personas/` with every filter the API has, and paging. Inputs are sent as
 * typed (a limit of 0 or 101 goes to the API), so the API's own validation is what a user sees.
 */
import type { Persona } from '../model/schemas.js'
import type { ValidationIssue } from './api.js'
import type { DemoContext, Panel } from './context.js'
import { debounce, field, h, latest, pager, showResult } from './ui.js'

const INTENTS = ['benign', 'curious', 'adversarial', 'malicious'] as const

export function createPersonasPanel(context: DemoContext): Panel {
  const { api, fixtures } = context

  // "Token's team" sends no team_id: the API then uses the team in the token, which is the
  // usual call of a team member. Super admins have no team in their token and must pick one.
  const team = h(
    'select',
    { 'data-testid': 'personas-team' },
    h('option', { value: '' }, 'Token’s team (no team_id)'),
    ...fixtures.teams.map((t) => h('option', { value: t.id }, t.name)),
  )
  const intents = INTENTS.map((intent) =>
    h('input', { type: 'checkbox', value: intent, 'data-testid': `intent-${intent}` }),
  )
  const preset = h(
    'select',
    { 'data-testid': 'personas-preset' },
    h('option', { value: '' }, 'All'),
    h('option', { value: 'true' }, 'Presets only'),
    h('option', { value: 'false' }, 'Custom only'),
  )
  const search = h('input', {
    type: 'search',
    placeholder: 'Name or role…',
    title: 'Matches name, description and role (case-insensitive)',
    'data-testid': 'personas-search',
  })
  // No min/max: the point is to let the API's own bounds (1 to 100) answer.
  const limit = h('input', { type: 'number', value: '10', 'data-testid': 'personas-limit', class: 'narrow' })

  const teamField = field('Team', team, 'personas-team-error')
  const intentsError = h('div', { class: 'field-error', 'data-testid': 'personas-intents-error', role: 'alert' })
  const intentsField = h(
    'fieldset',
    { class: 'field has-error' },
    h('legend', { class: 'field-label' }, 'Intents'),
    h('div', { class: 'checks' }, ...intents.map((box) => h('label', { class: 'check' }, box, ` ${box.value}`))),
    intentsError,
  )
  const presetField = field('Preset', preset, 'personas-preset-error')
  const searchField = field('Search', search, 'personas-search-error')
  const limitField = field('Limit', limit, 'personas-limit-error')
  const hint = h('div', { class: 'hint', 'data-testid': 'personas-hint' })

  const pages = pager('personas', limit, 10, () => void load())
  const offsetError = pages.offsetError
  const status = h('div', { class: 'status', 'data-testid': 'personas-status', role: 'status' })
  const body = h('tbody', {})
  const table = h(
    'table',
    { 'data-testid': 'personas-table' },
    h(
      'thead',
      {},
      h('tr', {}, ...['Name', 'Role', 'Intent', 'Knowledge', 'Skill', 'Preset'].map((title) => h('th', {}, title))),
    ),
    body,
  )

  const slots = [teamField.error, intentsError, presetField.error, searchField.error, limitField.error, offsetError]
  // loc → the error slot of the control that sent that parameter.
  const place = (loc: ValidationIssue['loc']) =>
    loc[0] !== 'query'
      ? undefined
      : (
          {
            team_id: teamField.error,
            intents: intentsError,
            is_preset: presetField.error,
            search: searchField.error,
            limit: limitField.error,
            offset: offsetError,
          } as Record<string, HTMLElement>
        )[String(loc[1])]

  const isCurrent = latest()

  async function load() {
    const current = isCurrent()
    const chosen = intents.filter((box) => box.checked).map((box) => box.value)
    hint.textContent =
      context.role() === 'super_admin' && !team.value ? 'A super admin has no team in the token: choose a team.' : ''
    pages.loading()
    const result = await api.get<{ results: Persona[]; total: number }>('/v1/personas/', {
      team_id: team.value || undefined,
      intents: chosen.length ? chosen : undefined,
      is_preset: preset.value || undefined,
      search: search.value || undefined,
      limit: limit.value.trim() || undefined,
      offset: pages.offset || undefined,
    })
    if (!current()) return
    showResult(status, slots, result, place)
    if (!result.ok) {
      body.replaceChildren(h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'No data')))
      pages.failed()
      return
    }
    const { results, total } = result.data
    pages.shown(results.length, total)
    body.replaceChildren(
      ...(results.length
        ? results.map((p) =>
            h(
              'tr',
              { 'data-testid': 'persona-row', 'data-id': p.id },
              h('td', { 'data-testid': 'persona-name' }, p.name),
              h('td', {}, p.role),
              h(
                'td',
                { 'data-testid': 'persona-intent' },
                h('span', { class: `tag intent-${p.intent}` }, p.intent ?? ''),
              ),
              h('td', {}, p.knowledge_level ?? ''),
              h('td', {}, p.skill_level ?? ''),
              h(
                'td',
                { 'data-testid': 'persona-preset' },
                p.is_preset ? `yes${p.preset_category ? ` (${p.preset_category})` : ''}` : 'no',
              ),
            ),
          )
        : [
            h('tr', {}, h('td', { colspan: 6, class: 'empty', 'data-testid': 'personas-empty' }, 'No personas match.')),
          ]),
    )
  }

  // Any filter change starts again at the first page: the old offset may be past the new total.
  const restart = () => {
    pages.restart()
    void load()
  }
  const restartSoon = debounce(restart)
  for (const control of [team, preset, ...intents]) control.addEventListener('change', restart)
  search.addEventListener('input', restartSoon)
  limit.addEventListener('input', restartSoon)

  const element = h(
    'section',
    { class: 'panel', 'data-testid': 'personas-panel' },
    h('h2', {}, 'Personas'),
    h(
      'div',
      { class: 'filters' },
      teamField.wrapper,
      intentsField,
      presetField.wrapper,
      searchField.wrapper,
      limitField.wrapper,
    ),
    hint,
    status,
    h('div', { class: 'table-wrap' }, table),
    pages.element,
  )
  void load()
  return { element, refresh: restart }
}
