import { defineNetworkFixture, type NetworkFixture } from '@msw/playwright'
import { test as base, expect } from '@playwright/test'
import type { AnyHandler } from 'msw'
import type { Fixtures } from '../auth/fixtures.js'
import { DEVELOPMENT_JWT_SECRET, mintToken, type TokenClaims } from '../auth/tokens.js'
import type { WorldOptions } from '../factories/world.js'
import { createHandlers } from '../handlers/index.js'
import { MockInstance } from '../mock/instance.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import type { World } from '../model/world.js'

export interface PlaywrightMockOptions extends WorldOptions {
  profile?: ProfileOptions
  jwtSecret?: string
  /** Milliseconds added before every API answer. @default 0 */
  delayMs?: number
}

/** The `mock` fixture: one freshly seeded world per test, in the test process. */
export interface PlaywrightMock {
  readonly instance: MockInstance
  /** The @msw/data collections: arrange data before the page loads, or assert on writes. */
  readonly world: World
  /** Ids of the seeded records and ready tokens. */
  readonly fixtures: Fixtures
  readonly profile: Profile
  /** The @msw/playwright network fixture underneath. */
  readonly network: NetworkFixture
  /** Prepends handlers for this test only. */
  use(...handlers: AnyHandler[]): void
  resetHandlers(): void
  /** Back to a freshly seeded world. */
  reset(options?: WorldOptions): Promise<void>
  mintToken(claims: TokenClaims): Promise<string>
}

/**
 * Playwright's `test` with a `mock` fixture: every request the page makes to `/v1/...` or
 * `/__mock/...` is answered in the test process by the mock's handlers, over a world seeded
 * for this test alone (through @msw/playwright's context routing; no service worker). The
 * app under test must not start the msw worker itself.
 * @example
 * test.use({ mockOptions: { seed: 3 } })
 * test('lists personas', async ({ page, mock }) => {
 *   await page.goto('/')
 *   await expect(page.getByText(mock.world.personas.all()[0]!.name)).toBeVisible()
 * })
 */
export const test = base.extend<{ mockOptions: PlaywrightMockOptions; mock: PlaywrightMock }>({
  mockOptions: [{}, { option: true }],
  mock: [
    async ({ context, mockOptions }, use) => {
      const jwtSecret = mockOptions.jwtSecret ?? DEVELOPMENT_JWT_SECRET
      const profile = resolveProfile(mockOptions.profile)
      const instance = await MockInstance.create({ seed: mockOptions.seed, personasPerTeam: mockOptions.personasPerTeam, jwtSecret })
      const handlers = createHandlers({ instance, profile, jwtSecret, claim: 'api', delayMs: mockOptions.delayMs })
      const network = defineNetworkFixture({ context, handlers, onUnhandledRequest: 'bypass' })
      await network.enable()
      await use({
        instance,
        get world() {
          return instance.world
        },
        get fixtures() {
          return instance.fixtures
        },
        profile,
        network,
        use: (...overrides) => network.use(...overrides),
        resetHandlers: () => network.resetHandlers(),
        reset: (options) => instance.reset(options),
        mintToken: (claims) => mintToken(claims, jwtSecret),
      })
      await network.disable()
    },
    { auto: true },
  ],
})

export { expect }
