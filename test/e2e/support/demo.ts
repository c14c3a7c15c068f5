/**
 * A page object for the demo (browser/demo): the tests read as what a user does, and the
 * data-testid wiring lives here once.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

type Role = 'super_admin' | 'team_reader' | 'persona_reader' | 'no_permissions' | 'expired' | 'none'

const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url))

export class Demo {
  constructor(readonly page: Page) {}

  /** Opens the demo with these query parameters and waits until the fixtures loaded and the panels are mounted. */
  async open(query: Record<string, string>) {
    await this.page.goto(`/?${new URLSearchParams(query)}`)
    await this.ready()
  }

  async ready() {
    await expect(
      this.page.locator('body[data-ready="true"]'),
      'the demo started (see the fatal message if any)',
    ).toBeAttached({ timeout: 15_000 })
  }

  byTestId = (id: string): Locator => this.page.getByTestId(id)

  async role(role: Role) {
    await this.byTestId('role-select').selectOption(role === 'none' ? '' : role)
  }

  // Personas
  readonly personas = {
    panel: () => this.byTestId('personas-panel'),
    rows: () => this.byTestId('persona-row'),
    range: () => this.byTestId('personas-range'),
    status: () => this.byTestId('personas-status'),
    intent: (intent: string) => this.byTestId(`intent-${intent}`),
    team: () => this.byTestId('personas-team'),
    preset: () => this.byTestId('personas-preset'),
    search: () => this.byTestId('personas-search'),
    limit: () => this.byTestId('personas-limit'),
    limitError: () => this.byTestId('personas-limit-error'),
    next: () => this.byTestId('personas-next'),
    prev: () => this.byTestId('personas-prev'),
  }

  // Rules
  readonly rules = {
    panel: () => this.byTestId('rules-panel'),
    rows: () => this.byTestId('rule-row'),
    range: () => this.byTestId('rules-range'),
    status: () => this.byTestId('rules-status'),
    policy: () => this.byTestId('rules-policy'),
    limit: () => this.byTestId('rules-limit'),
    next: () => this.byTestId('rules-next'),
    prev: () => this.byTestId('rules-prev'),
    details: () => this.byTestId('rule-details'),
  }

  // Bulk add
  readonly bulk = {
    panel: () => this.byTestId('bulk-panel'),
    dimension: () => this.byTestId('bulk-dimension'),
    values: () => this.byTestId('bulk-values'),
    submit: () => this.byTestId('bulk-submit'),
    status: () => this.byTestId('bulk-status'),
    summary: () => this.byTestId('bulk-summary'),
    created: () => this.byTestId('bulk-created-value'),
    createdRows: () => this.byTestId('bulk-created-row'),
    skipped: () => this.byTestId('bulk-skipped-item'),
    lineError: (line: number) => this.page.locator(`[data-testid="bulk-line-error"][data-line="${line}"]`),
  }

  /** Submits a bulk add and waits for its answer (a summary on success, a status line otherwise). */
  async bulkAdd(dimension: string, lines: string[]) {
    await this.bulk.dimension().selectOption({ label: dimension })
    await this.bulk.values().fill(lines.join('\n'))
    const answered = this.page.waitForResponse((response) => response.url().includes('/values/bulk'))
    await this.bulk.submit().click()
    await answered
  }

  /** A full-page screenshot into e2e/screenshots/<name>.png, also attached to the report. */
  async screenshot(name: string, testInfo: TestInfo, target: Page | Locator = this.page) {
    mkdirSync(SCREENSHOTS, { recursive: true })
    const path = `${SCREENSHOTS}${name}.png`
    if ('goto' in target) await target.screenshot({ path, fullPage: true })
    else await target.screenshot({ path })
    await testInfo.attach(name, { path, contentType: 'image/png' })
  }
}

/**
 * A session key of its own for each test (worker index, title, and a random part so that a
 * reused server keeps no state of an earlier run): what isolates parallel tests on one server.
 */
export function sessionKey(testInfo: TestInfo): string {
  const title = testInfo.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
  return `w${testInfo.workerIndex}-${title}-${Math.random().toString(36).slice(2, 10)}`
}
