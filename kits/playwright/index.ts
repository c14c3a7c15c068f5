import { test as base, expect } from '@playwright/test'
import type { AnyHandler } from 'msw'
import { createHandlers } from '../../handlers/index.js'
import { MockHandle, seedInstance } from '../../core/instance/handle.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { writeContractPart } from './contract-file.js'
import { defineNetworkFixture, type NetworkFixture } from './network.js'
import { checkMockOptions, type PlaywrightMockOptions } from './options.js'

export type { PlaywrightMockOptions } from './options.js'

/**
 * The fixture's options, for `test.use` or the `use` of `playwright.config.ts`, whose `defineConfig` learns of them
 * as Playwright's own docs show for fixture options.
 * @example export default defineConfig<MockFixtureOptions>({ use: { recordContract: 'test-results/contract.json' } })
 */
export interface MockFixtureOptions {
  /** The mock's options in every test (`seed`, `personasPerTeam`, `scenario`, ...). @default {} */
  mockOptions?: PlaywrightMockOptions
  /**
   * Write what the mock answered in every test of the run to this contract file (merged across workers and
   * tests, ordered by test), to replay against a real server with `agent-console-mock verify --replay`.
   * @example test.use({ recordContract: 'test-results/contract.json' }) // or in the config's `use`
   */
  recordContract?: string | undefined
}

/** The `mock` fixture: one freshly seeded world per test, in the test process. */
export class PlaywrightMock extends MockHandle {
  /** @internal the fixture builds it */
  constructor(
    instance: MockInstance,
    options: PlaywrightMockOptions,
    readonly network: NetworkFixture,
  ) {
    super(instance, options)
  }

  /** Prepends handlers for this test only. */
  readonly use = (...handlers: AnyHandler[]): void => this.network.use(...handlers)
  /** Drops the handlers added with `use` and the overrides set with `override`. */
  readonly resetHandlers = (): void => {
    this.network.resetHandlers()
    this.instance.overrides.clear()
  }
}

/**
 * Playwright's `test` with a `mock` fixture: every request the page makes to `/v1/...` or
 * `/__mock/...` is answered in the test process by the mock's handlers, over a world seeded
 * for this test alone (Playwright's context routing and msw's `getResponse`; no service worker).
 * The app under test must not start the msw worker itself.
 * @example
 * test.use({ mockOptions: { seed: 3 } })
 * test('lists personas', async ({ page, mock }) => {
 *   await page.goto('/')
 *   await expect(page.getByText(mock.world.personas.all()[0]!.name)).toBeVisible()
 * })
 */
export const test = base.extend<{
  mockOptions: PlaywrightMockOptions
  recordContract: MockFixtureOptions['recordContract']
  mock: PlaywrightMock
}>({
  mockOptions: [{}, { option: true }],
  recordContract: [undefined, { option: true }],
  mock: [
    async ({ context, mockOptions, recordContract }, use, testInfo) => {
      checkMockOptions(mockOptions)
      const instance = await seedInstance(mockOptions)
      instance.recorder.test = testInfo.titlePath.join(' › ')
      const handle = new MockHandle(instance, mockOptions)
      const handlers = createHandlers({
        instance,
        profile: handle.profile,
        jwtSecret: handle.jwtSecret,
        claim: 'api',
        delayMs: mockOptions.delayMs,
        scenarios: mockOptions.scenarios,
        openapi: mockOptions.openapi,
      })
      const network = defineNetworkFixture({ context, handlers })
      await network.enable()
      const mock = new PlaywrightMock(instance, mockOptions, network)
      await use(mock)
      await network.disable()
      if (recordContract) {
        const part = `${testInfo.testId}-${testInfo.repeatEachIndex}`
        await writeContractPart(recordContract, await mock.contract(), part)
      }
    },
    { auto: true },
  ],
})

export { expect }

/** The API's bodies as the app receives and sends them (types only). */
export type * from '../../model/api/wire-types.js'
export type { RecordedContract, Interaction } from '../../verify/recording/format.js'
export type * from '../../core/overrides/types.js'
export type { NetworkFixture } from './network.js'
export type { NetworkEvents, NetworkEventsMap } from './events.js'
export { InvalidOverrideError } from '../../core/overrides/answer.js'
