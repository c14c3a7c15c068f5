/**
 * The operations the mock serves from a team's OpenAPI document (`GET /__mock/operations`, those with
 * `served`), when it runs with one: method and path, and a "Try" for each GET whose path has no parameter,
 * which calls it with the chosen role's token and shows the answer.
 */
import type { ApiClient } from './api.js'
import type { DemoContext, Panel } from './context.js'
import { h, showResult } from './ui.js'

interface ListedOperation {
  name: string
  method: string
  path: string
  served: boolean
}

/** The panel, or null when the mock serves no document (or does not list its operations). */
export async function createServedPanel({ api }: DemoContext): Promise<Panel | null> {
  const listed = await api.get<{ operations: ListedOperation[] }>('/__mock/operations')
  const served = listed.ok ? listed.data.operations.filter((operation) => operation.served) : []
  if (served.length === 0) return null
  const status = h('div', { class: 'status', 'data-testid': 'served-status', role: 'status' })
  const output = h('pre', { class: 'served-answer', 'data-testid': 'served-answer' })
  const rows = served.map((operation) =>
    h(
      'tr',
      { 'data-testid': 'served-row' },
      h('td', { 'data-testid': 'served-method' }, operation.method),
      h('td', { 'data-testid': 'served-path' }, operation.path),
      h('td', {}, tryButton(api, operation, status, output)),
    ),
  )
  const element = h(
    'section',
    { class: 'panel', 'data-testid': 'served-panel' },
    h('h2', {}, 'Served from the OpenAPI document'),
    h('div', { class: 'table-wrap' }, h('table', {}, h('tbody', {}, ...rows))),
    status,
    output,
  )
  return { element, refresh: () => output.replaceChildren() }
}

/** "Try" for a GET without path parameters (a list, a summary); nothing for the others. */
function tryButton(api: ApiClient, operation: ListedOperation, status: HTMLElement, output: HTMLElement) {
  if (operation.method !== 'GET' || operation.path.includes('{')) return null
  const button = h('button', { type: 'button', 'data-testid': 'served-try' }, 'Try')
  button.addEventListener('click', async () => {
    const result = await api.get<unknown>(operation.path)
    showResult(status, [], result, () => undefined, `${result.status} GET ${operation.path}`)
    output.textContent = result.ok ? JSON.stringify(result.data, null, 2) : ''
  })
  return button
}
