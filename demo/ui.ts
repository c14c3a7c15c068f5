/**
 * Small DOM helpers shared by the panels, and the one place that decides how an API error
 * reads: a status line per panel, and 422 issues placed next to the field they are about.
 */
import type { ApiResult, ValidationIssue } from './api.js'

type Attributes = Record<string, string | number | boolean | undefined>
type Child = Node | string | null | undefined | false

/** `h('button', { 'data-testid': 'x', type: 'button' }, 'Next')`: an element, without a framework. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  element.append(...children.filter((child): child is Node | string => child != null && child !== false))
  return element
}

/** A labelled control with an (initially empty) error slot under it. */
export function field(label: string, control: HTMLElement, errorTestId: string) {
  const error = h('div', { class: 'field-error', 'data-testid': errorTestId, role: 'alert' })
  const wrapper = h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), control, error)
  return { wrapper, error }
}

/** Reason phrases (Python 3.11's, as the FastAPI service sends them), so a status line reads like HTTP in every mode, also where a route or worker answer carries no statusText. */
const REASONS: Record<number, string> = {
  0: 'No answer',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

const reason = (status: number) => REASONS[status] ?? 'Error'

/** Shows where a location points, e.g. `query.limit` or `body.values[2].value`. */
function formatLoc(loc: ValidationIssue['loc']): string {
  return loc.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('')
}

/**
 * Renders a panel's state after an answer. `place` maps a 422 issue to the error slot of its
 * field; issues it cannot place stay in the status line, so nothing the API said is hidden.
 * Returns nothing useful: the panel renders the data itself on success.
 */
export function showResult(
  status: HTMLElement,
  slots: readonly HTMLElement[],
  result: ApiResult<unknown>,
  place: (loc: ValidationIssue['loc']) => HTMLElement | undefined,
  success = '',
) {
  for (const slot of slots) {
    slot.replaceChildren()
    slot.closest('.field, .has-error')?.classList.remove('invalid')
  }
  status.dataset.status = String(result.status)
  if (result.ok) {
    status.className = 'status ok'
    status.textContent = success
    return
  }
  status.className = 'status error'
  const head = h('strong', { 'data-testid': 'status-code' }, `${result.status || ''} ${reason(result.status)}`.trim())
  if (typeof result.detail === 'string') {
    status.replaceChildren(head, ': ', h('span', { 'data-testid': 'status-detail' }, result.detail))
    return
  }
  const unplaced: ValidationIssue[] = []
  for (const issue of result.detail) {
    const slot = place(issue.loc)
    if (!slot) {
      unplaced.push(issue)
      continue
    }
    slot.append(h('div', { 'data-loc': formatLoc(issue.loc) }, issue.msg))
    slot.closest('.field, .has-error')?.classList.add('invalid')
  }
  const count = result.detail.length
  status.replaceChildren(
    head,
    ': ',
    h('span', { 'data-testid': 'status-detail' }, `${count} validation error${count === 1 ? '' : 's'}`),
  )
  if (unplaced.length)
    status.append(
      h('ul', {}, ...unplaced.map((issue) => h('li', {}, h('code', {}, formatLoc(issue.loc)), ` ${issue.msg}`))),
    )
}

/** "11–20 of 60": the range of a page in a list of `total` items. */
function rangeText(offset: number, count: number, total: number): string {
  return count === 0 ? `0 of ${total}` : `${offset + 1}–${offset + count} of ${total}`
}

/** The integer typed in a limit input, or `fallback` when it is not one (used only for paging steps). */
function intOr(text: string, fallback: number): number {
  const value = Number.parseInt(text, 10)
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** Runs `run` `ms` after the last call: typing in a search box sends one request, not one per key. */
export function debounce(run: () => void, ms = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  return () => {
    clearTimeout(timer)
    timer = setTimeout(run, ms)
  }
}

/**
 * Drops stale answers: a panel asks for a ticket before each request and renders the answer
 * only if no newer request started meanwhile (fast clicks on "Next" must not show an old page).
 */
export function latest() {
  let current = 0
  return () => {
    const ticket = ++current
    return () => ticket === current
  }
}

/**
 * Prev/next paging over an offset, shared by the panels: the buttons, the "X–Y of N" range
 * and the slot where a 422 on `offset` is shown. Steps are the limit typed in `limit`.
 */
export function pager(prefix: string, limit: HTMLInputElement, defaultLimit: number, load: () => void) {
  let offset = 0
  const prev = h('button', { type: 'button', 'data-testid': `${prefix}-prev` }, '‹ Prev')
  const next = h('button', { type: 'button', 'data-testid': `${prefix}-next` }, 'Next ›')
  const range = h('span', { class: 'range', 'data-testid': `${prefix}-range` }, '…')
  const offsetError = h('div', { class: 'field-error', 'data-testid': `${prefix}-offset-error`, role: 'alert' })
  const step = (by: number) => {
    offset = Math.max(0, offset + by * intOr(limit.value, defaultLimit))
    load()
  }
  prev.addEventListener('click', () => step(-1))
  next.addEventListener('click', () => step(1))
  const disable = (text: string) => {
    range.textContent = text
    prev.disabled = next.disabled = true
  }
  return {
    element: h('div', { class: 'pager' }, prev, range, next, offsetError),
    offsetError,
    get offset() {
      return offset
    },
    /** Back to the first page: after a filter change the old offset may be past the new total. */
    restart: () => void (offset = 0),
    /** No paging while a page loads: a second click would step from an offset not yet shown. */
    loading: () => disable('…'),
    failed: () => disable('–'),
    shown(count: number, total: number) {
      range.textContent = rangeText(offset, count, total)
      prev.disabled = offset === 0
      next.disabled = offset + count >= total
    },
  }
}
