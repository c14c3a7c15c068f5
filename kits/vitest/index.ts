import { startPassingOn } from '../../browser/msw-adapter.js'
import { http, type RequestHandler } from 'msw'
import type { SetupWorker } from 'msw/browser'
import { loadSetupWorker, type PageWorkerFactory } from '../../browser/page-only.js'
import { test as base } from 'vitest'
import type { Core } from '../../handlers/app.js'
import { MockHandle } from '../../core/instance/handle.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { freshMock, type FreshMockOptions } from '../fresh-mock.js'

export type VitestMockOptions = FreshMockOptions

/** The page's service worker, shared by the tests of a Vitest worker (a test file, in browser mode). */
export interface MockWorkerOptions {
  /** Where the worker script is served (`mockServiceWorker()` from `agent-console-mock/vite` serves it). @default '/mockServiceWorker.js' */
  serviceWorkerUrl?: string
  /** Don't log "Mocking enabled" and the mocked requests. @default true */
  quiet?: boolean
}

/**
 * msw's worker, started once per Vitest worker, with one handler that hands the page's API requests
 * to the mock of the test running now (none between tests: they pass through).
 */
export class MockServiceWorker {
  readonly worker: SetupWorker
  #current: Core | undefined

  /** @internal the `mockServiceWorker` fixture builds it, with {@link MockServiceWorker.create} */
  constructor(setupWorker: PageWorkerFactory) {
    this.worker = setupWorker(
      http.all(
        ({ request }) => this.#current?.claims(request) ?? false,
        ({ request }) => (this.#current ? this.#current.fetch(request) : undefined),
      ),
    )
  }

  /**
   * @internal loads msw's worker (msw/browser, which msw 3 exports to no Node: importing this entry in a Node test
   * works, and this says it is for browser mode)
   */
  static async create(): Promise<MockServiceWorker> {
    return new MockServiceWorker(await loadSetupWorker('vitest'))
  }

  /** @internal answers with this test's core until {@link release} */
  serve(core: Core): void {
    if (this.#current)
      throw new Error(
        "agent-console-mock/vitest: another test holds the page's mock; tests of one file share one worker, so they cannot run with test.concurrent",
      )
    this.#current = core
  }

  /** @internal after a test: its handlers and its world are gone */
  release(): void {
    this.worker.resetHandlers()
    this.#current = undefined
  }
}

/** The `mock` fixture: a world of its own for every test, answered by the file's service worker. */
export class VitestMock extends MockHandle {
  /** @internal the fixture builds it */
  constructor(
    instance: MockInstance,
    options: VitestMockOptions,
    readonly worker: SetupWorker,
  ) {
    super(instance, options)
  }

  /** Prepends handlers for this test only (they are dropped after it). */
  readonly use = (...handlers: RequestHandler[]): void => this.worker.use(...handlers)
  /** Drops the handlers added with `use` and the overrides set with `override`. */
  readonly resetHandlers = (): void => {
    this.worker.resetHandlers()
    this.instance.overrides.clear()
  }
}

interface MockFixtures {
  $worker: { mockWorkerOptions: MockWorkerOptions; mockServiceWorker: MockServiceWorker }
  $test: { mockOptions: VitestMockOptions; mock: VitestMock }
}

/**
 * Vitest's `test` (browser mode) with a `mock` fixture. msw's service worker is started once per
 * Vitest worker (each test file, unless `isolate: false`), as msw recommends for Vitest: starting it
 * per test races (mswjs/msw#2709). Every test gets a freshly seeded world of its own (a copy-on-write
 * fork: cheap), and the page's requests to `/v1/...` and `/__mock/...` are answered from it; handlers
 * added with `mock.use()` and overrides are dropped after the test. Serve the worker script with
 * `mockServiceWorker()` from `agent-console-mock/vite` in the Vitest config.
 * @example
 * test.override({ mockOptions: { seed: 7 } })
 * test('lists personas', async ({ mock }) => {
 *   const response = await fetch('/v1/personas/', {
 *     headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
 *   })
 *   expect((await response.json()).total).toBe(mock.world.personas.all().length)
 * })
 */
export const test = base.extend<MockFixtures>({
  // A worker fixture is a function; Vitest reads what it depends on from its first parameter's pattern.
  // biome-ignore lint/correctness/noEmptyPattern: it depends on nothing
  mockWorkerOptions: [async ({}, use) => use({}), { scope: 'worker' }],
  mockServiceWorker: [
    async ({ mockWorkerOptions }, use) => {
      const mockServiceWorker = await MockServiceWorker.create()
      await startPassingOn(mockServiceWorker.worker, {
        url: mockWorkerOptions.serviceWorkerUrl ?? '/mockServiceWorker.js',
        quiet: mockWorkerOptions.quiet ?? true,
      })
      await use(mockServiceWorker)
      await mockServiceWorker.worker.stop()
    },
    { scope: 'worker' },
  ],
  mockOptions: {},
  mock: [
    async ({ mockServiceWorker, mockOptions }, use) => {
      const { mock, core } = await freshMock(
        mockOptions,
        (instance) => new VitestMock(instance, mockOptions, mockServiceWorker.worker),
      )
      mockServiceWorker.serve(core)
      try {
        await use(mock)
      } finally {
        mockServiceWorker.release()
      }
    },
    { auto: true },
  ],
})

export { expect } from 'vitest'

/** The API's bodies as the app receives and sends them (types only). */
export type * from '../../model/api/wire-types.js'
export type * from '../../core/overrides/types.js'
export { InvalidOverrideError } from '../../core/overrides/answer.js'
