/**
 * Bulk add: `POST /v1/demographics/{dimension_id}/values/bulk` from a textarea, one value per
 * line (`value | Display name` sets display_name). The API answers only the values it created,
 * so the values it skipped as duplicates are the submitted ones missing from the answer.
 */
import type { DemographicValue } from '../model/schemas.js'
import type { ValidationIssue } from './api.js'
import type { DemoContext, Panel } from './context.js'
import { field, h, showResult } from './ui.js'

interface Item {
  value: string
  display_name?: string
}

export function createBulkAddPanel(context: DemoContext): Panel {
  const { api, fixtures } = context

  const dimension = h(
    'select',
    { 'data-testid': 'bulk-dimension' },
    ...fixtures.dimensions.map((d) => h('option', { value: d.id }, d.name)),
  )
  const dimensionField = field('Dimension', dimension, 'bulk-dimension-error')
  // wrap=off keeps one text line per gutter line, so a line number always points at its value.
  const values = h('textarea', {
    'data-testid': 'bulk-values',
    rows: 7,
    wrap: 'off',
    spellcheck: 'false',
    placeholder: '90+ | 90 and over\n85-89',
  })
  const gutter = h('div', { class: 'gutter', 'aria-hidden': 'true', 'data-testid': 'bulk-gutter' })
  const valuesError = h('div', { class: 'field-error', 'data-testid': 'bulk-values-error', role: 'alert' })
  const lineErrors = h('ul', { class: 'line-errors', 'data-testid': 'bulk-line-errors' })
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'bulk-submit' }, 'Add values')
  const hint = h('div', { class: 'hint', 'data-testid': 'bulk-hint' })
  const status = h('div', { class: 'status', 'data-testid': 'bulk-status', role: 'status' })
  const result = h('div', { class: 'bulk-result', 'data-testid': 'bulk-result' })

  const renumber = () => {
    const count = values.value.split('\n').length
    if (gutter.childElementCount !== count)
      gutter.replaceChildren(
        ...Array.from({ length: count }, (_, i) => h('div', { 'data-line': i + 1 }, String(i + 1))),
      )
    gutter.scrollTop = values.scrollTop
  }
  values.addEventListener('input', renumber)
  values.addEventListener('scroll', () => (gutter.scrollTop = values.scrollTop))
  renumber()

  // Body item N is line N + 1: every line up to the last non-blank one is sent (parseLines).
  const place = (loc: ValidationIssue['loc']): HTMLElement | undefined => {
    if (loc[0] === 'path') return dimensionField.error
    if (loc[0] !== 'body') return undefined
    if (loc[1] === 'values' && typeof loc[2] === 'number') {
      const line = loc[2] + 1
      gutter.querySelector(`[data-line="${line}"]`)?.classList.add('error')
      let entry = lineErrors.querySelector<HTMLElement>(`[data-line="${line}"]`)
      if (!entry) {
        entry = h(
          'li',
          { 'data-testid': 'bulk-line-error', 'data-line': line },
          h('span', { class: 'line-no' }, `Line ${line}${loc[3] && loc[3] !== 'value' ? ` (${loc[3]})` : ''}`),
        )
        lineErrors.append(entry)
      }
      return entry
    }
    return valuesError
  }

  const form = h(
    'form',
    { class: 'bulk-form', novalidate: true },
    h('div', { class: 'filters' }, dimensionField.wrapper),
    h(
      'label',
      { class: 'field has-error' },
      h('span', { class: 'field-label' }, 'Values, one per line (value | Display name)'),
      h('div', { class: 'editor' }, gutter, values),
      valuesError,
      lineErrors,
    ),
    h('div', { class: 'actions' }, submit, hint),
  )

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const items = parseLines(values.value)
    submit.disabled = true
    for (const line of gutter.querySelectorAll('.error')) line.classList.remove('error')
    result.replaceChildren()
    const answer = await api.post<DemographicValue[]>(
      `/v1/demographics/${encodeURIComponent(dimension.value)}/values/bulk`,
      { values: items },
    )
    submit.disabled = false
    showResult(status, [dimensionField.error, valuesError, lineErrors], answer, place)
    if (answer.ok) result.replaceChildren(...renderOutcome(items, answer.data))
  })

  const updateHint = () =>
    (hint.textContent = context.role() === 'super_admin' ? '' : 'Adding values needs the Super admin role.')
  updateHint()

  const element = h(
    'section',
    { class: 'panel', 'data-testid': 'bulk-panel' },
    h('h2', {}, 'Bulk add dimension values'),
    form,
    status,
    result,
  )
  return { element, refresh: updateHint }
}

/**
 * One body item per line, empty lines included: an empty value is the API's to refuse (422
 * at its index, shown on its line), not the demo's to drop. Trailing blank lines are left out,
 * since a final newline is not meant as a value.
 */
function parseLines(text: string): Item[] {
  const rows = text.split('\n')
  while (rows.length && rows[rows.length - 1]?.trim() === '') rows.pop()
  return rows.map((row): Item => {
    const bar = row.indexOf('|')
    if (bar < 0) return { value: row.trim() }
    return { value: row.slice(0, bar).trim(), display_name: row.slice(bar + 1).trim() }
  })
}

/** Created values as the API answered them; each submitted value not among them was skipped. */
function renderOutcome(items: Item[], created: DemographicValue[]): HTMLElement[] {
  const unclaimed = created.map((value) => value.value)
  const skipped: string[] = []
  for (const { value } of items) {
    const at = unclaimed.indexOf(value)
    if (at >= 0) unclaimed.splice(at, 1)
    else skipped.push(value)
  }
  return [
    h(
      'p',
      { class: 'summary', 'data-testid': 'bulk-summary' },
      `${created.length} created, ${skipped.length} skipped as duplicate${skipped.length === 1 ? '' : 's'}.`,
    ),
    h(
      'div',
      { class: 'outcome' },
      h(
        'div',
        {},
        h('h4', {}, 'Created'),
        created.length
          ? h(
              'table',
              { 'data-testid': 'bulk-created' },
              h('thead', {}, h('tr', {}, h('th', {}, 'Value'), h('th', {}, 'Display name'), h('th', {}, 'Sort order'))),
              h(
                'tbody',
                {},
                ...created.map((v) =>
                  h(
                    'tr',
                    { 'data-testid': 'bulk-created-row' },
                    h('td', { 'data-testid': 'bulk-created-value' }, v.value),
                    h('td', {}, v.display_name),
                    h('td', {}, String(v.sort_order)),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted', 'data-testid': 'bulk-created' }, 'Nothing new.'),
      ),
      h(
        'div',
        {},
        h('h4', {}, 'Skipped (already in the dimension)'),
        skipped.length
          ? h(
              'ul',
              { 'data-testid': 'bulk-skipped' },
              ...skipped.map((value) => h('li', { 'data-testid': 'bulk-skipped-item' }, value)),
            )
          : h('p', { class: 'muted', 'data-testid': 'bulk-skipped' }, 'None.'),
      ),
    ),
  ]
}
