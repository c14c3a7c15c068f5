/** What every panel gets from `main.ts`: the API client, the seeded fixtures and the chosen role. */
import type { Fixtures, FixtureTokens } from '../factories/fixtures.js'
import type { ApiClient } from './api.js'

export type Mode = 'worker' | 'server' | 'network'

/** A fixture token's name, or '' for requests without a token. */
export type Role = keyof FixtureTokens | ''

export interface DemoContext {
  readonly mode: Mode
  readonly api: ApiClient
  readonly fixtures: Fixtures
  role(): Role
}

/** A panel: its element, and `refresh()` for when something outside it changed (the role). */
export interface Panel {
  readonly element: HTMLElement
  refresh(): void
}
