/**
 * Policy rules: `GET /v1/policies/{policy_id}/rules` with paging. A row opens the parts of a
 * rule that do not fit a table (its text, consequence, provenance, constraints, review).
 */
import type { PolicyRule } from '../model/schemas.js'
import type { ValidationIssue } from './api.js'
import type { DemoContext, Panel } from './context.js'
import { debounce, field, h, latest, pager, showResult } from './ui.js'

const COLUMNS = ['Rule', 'Type', 'Category', 'Status', 'Action']

export function createRulesPanel(context: DemoContext): Panel {
  const { api, fixtures } = context
  const teamName = (id: string) => fixtures.teams.find((team) => team.id === id)?.name ?? id

  const policy = h(
    'select',
    { 'data-testid': 'rules-policy' },
    ...fixtures.policies.map((p) => h('option', { value: p.id }, `${p.name} · ${teamName(p.team_id)}`)),
  )
  // 20 rather than the API's default of 100: a page that fits on a screen.
  const limit = h('input', { type: 'number', value: '20', 'data-testid': 'rules-limit', class: 'narrow' })
  const policyField = field('Policy', policy, 'rules-policy-error')
  const limitField = field('Limit', limit, 'rules-limit-error')

  const pages = pager('rules', limit, 20, () => void load())
  const offsetError = pages.offsetError
  const status = h('div', { class: 'status', 'data-testid': 'rules-status', role: 'status' })
  const body = h('tbody', {})
  const table = h(
    'table',
    { 'data-testid': 'rules-table', class: 'clickable' },
    h('thead', {}, h('tr', {}, ...COLUMNS.map((title) => h('th', {}, title)))),
    body,
  )

  const slots = [policyField.error, limitField.error, offsetError]
  const place = (loc: ValidationIssue['loc']) =>
    loc[0] === 'path'
      ? policyField.error
      : loc[0] === 'query'
        ? ({ limit: limitField.error, offset: offsetError } as Record<string, HTMLElement>)[String(loc[1])]
        : undefined

  const isCurrent = latest()

  async function load() {
    const current = isCurrent()
    pages.loading()
    const result = await api.get<{ results: PolicyRule[]; total: number }>(
      `/v1/policies/${encodeURIComponent(policy.value)}/rules`,
      {
        limit: limit.value.trim() || undefined,
        offset: pages.offset || undefined,
      },
    )
    if (!current()) return
    showResult(status, slots, result, place)
    if (!result.ok) {
      body.replaceChildren(h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'empty' }, 'No data')))
      pages.failed()
      return
    }
    const { results, total } = result.data
    pages.shown(results.length, total)
    body.replaceChildren(
      ...(results.length
        ? results.flatMap(ruleRows)
        : [h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'empty' }, 'This policy has no rules.'))]),
    )
  }

  const restart = () => {
    pages.restart()
    void load()
  }
  policy.addEventListener('change', restart)
  limit.addEventListener('input', debounce(restart))

  const element = h(
    'section',
    { class: 'panel', 'data-testid': 'rules-panel' },
    h('h2', {}, 'Policy rules'),
    h('div', { class: 'filters' }, policyField.wrapper, limitField.wrapper),
    status,
    h('div', { class: 'table-wrap' }, table),
    pages.element,
  )
  void load()
  return { element, refresh: restart }
}

/** A summary row and its (hidden) details row; a click or Enter on the summary toggles them. */
function ruleRows(rule: PolicyRule): HTMLTableRowElement[] {
  const details = h(
    'tr',
    { class: 'details', 'data-testid': 'rule-details', hidden: true },
    h('td', { colspan: COLUMNS.length }, ruleDetails(rule)),
  )
  const row = h(
    'tr',
    { 'data-testid': 'rule-row', 'data-rule-id': rule.rule_id, tabindex: 0, 'aria-expanded': 'false' },
    h('td', {}, h('code', {}, rule.rule_id)),
    h('td', {}, rule.rule_type),
    h('td', {}, rule.category),
    h('td', {}, h('span', { class: `tag status-${rule.status}` }, rule.status)),
    h('td', {}, rule.action),
  )
  const toggle = () => {
    details.hidden = !details.hidden
    row.setAttribute('aria-expanded', String(!details.hidden))
  }
  row.addEventListener('click', toggle)
  row.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      toggle()
    }
  })
  return [row, details]
}

function ruleDetails(rule: PolicyRule): HTMLElement {
  const { consequence, provenance } = rule
  const location = provenance.source_location
  const item = (label: string, value: unknown, testId?: string) => [
    h('dt', {}, label),
    h('dd', { 'data-testid': testId }, value == null || value === '' ? '—' : String(value)),
  ]
  return h(
    'div',
    { class: 'rule-details' },
    h('p', { class: 'natural', 'data-testid': 'rule-natural-language' }, rule.natural_language),
    h(
      'div',
      { class: 'detail-grid' },
      h(
        'div',
        {},
        h('h4', {}, 'Consequence'),
        h(
          'dl',
          {},
          ...item('Action', consequence.action, 'rule-consequence-action'),
          ...item('Severity', consequence.severity, 'rule-consequence-severity'),
          ...item('Message', consequence.message),
        ),
      ),
      h(
        'div',
        {},
        h('h4', {}, 'Provenance'),
        h(
          'dl',
          {},
          ...item('Extracted by', provenance.extracted_by, 'rule-extracted-by'),
          ...item('Model', provenance.model_used),
          ...item('Confidence', provenance.confidence_score, 'rule-confidence'),
          ...item(
            'Source',
            location
              ? `${location.section}, ¶${location.paragraph}, chars ${location.char_start}–${location.char_end}`
              : null,
            'rule-source-location',
          ),
        ),
        location?.source_text ? h('blockquote', { 'data-testid': 'rule-source-text' }, location.source_text) : null,
      ),
      h(
        'div',
        {},
        h('h4', {}, `Constraints (${rule.constraint_logic ?? '—'})`),
        rule.constraints?.length
          ? h(
              'ul',
              { 'data-testid': 'rule-constraints' },
              ...rule.constraints.map((c) =>
                h('li', {}, h('code', {}, `${c.left_operand} ${c.operator} ${c.right_operand}`)),
              ),
            )
          : h('p', { class: 'muted', 'data-testid': 'rule-constraints' }, 'None'),
        h('h4', {}, 'Target and assignee'),
        h(
          'dl',
          {},
          ...item('Target', rule.target),
          ...item('Assignee', rule.assignee),
          ...item('Tags', rule.tags?.join(', ')),
        ),
      ),
      h(
        'div',
        {},
        h('h4', {}, 'Review'),
        h(
          'dl',
          {},
          ...item('Status', rule.status, 'rule-review-status'),
          ...item('Reviewed by', rule.reviewed_by),
          ...item('Reviewed at', rule.reviewed_at == null ? null : new Date(rule.reviewed_at * 1000).toISOString()),
          ...item('Notes', rule.review_notes),
        ),
      ),
    ),
  )
}
