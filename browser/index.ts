import type { RequestHandler } from 'msw'
import type { SetupWorker } from 'msw/browser'
import { loadSetupWorker, type PageWorkerFactory } from './page-only.js'
import type { WorldOptions } from '../factories/world.js'
import { createHandlers } from '../handlers/index.js'
import { MockHandle, seedInstance, type MockOptions } from '../core/instance/handle.js'
import type { MockInstance } from '../core/instance/instance.js'
import { parseScenarioNames } from '../core/scenarios/index.js'
import { resetWithScenarios } from '../core/scenarios/effects.js'
import { persistInLocalStorage } from './persistence.js'
import { startPassingOn } from './msw-adapter.js'

export interface MockWorkerOptions extends MockOptions {
  /**
   * Scenarios to start with (`'empty-team,slow'` or a list of names).
   * @default the page URL's `?scenario=` (none without one)
   */
  scenario?: string | readonly string[]
  /** Milliseconds added before every API answer. @default 0 */
  delayMs?: number
  /**
   * Keep the world across page reloads, in `localStorage` (off by default). A reload then
   * shows the values a bulk add created. `true` stores under a key made from the seed;
   * a string names the key. Limits: localStorage holds about 5 MB, so a world of more than
   * a few thousand personas cannot be kept (a warning says so, and the mock goes on unsaved).
   */
  persist?: boolean | string
  /** Where the worker script is served (`npx msw init <public dir>`). @default '/mockServiceWorker.js' */
  serviceWorkerUrl?: string
  /** Don't log "Mocking enabled" and the mocked requests. @default true */
  quiet?: boolean
}

type Persistence = Awaited<ReturnType<typeof persistInLocalStorage>>

/** The mock in the browser: msw's service worker answers the page's API requests. */
export class MockWorker extends MockHandle {
  readonly worker: SetupWorker

  /** @internal use `startMockWorker()`; `setupWorker` is msw's, loaded by it */
  constructor(
    instance: MockInstance,
    options: MockWorkerOptions,
    setupWorker: PageWorkerFactory,
    private readonly persistence?: Persistence,
  ) {
    super(instance, options)
    const { profile, jwtSecret } = this
    this.worker = setupWorker(
      ...createHandlers({
        instance,
        profile,
        jwtSecret,
        claim: 'api',
        delayMs: options.delayMs,
        scenarios: options.scenarios,
        openapi: options.openapi,
      }),
    )
    if (persistence) this.worker.events.on('response:mocked', () => persistence.save())
  }

  /** Back to a freshly seeded world (the worker's own seed and size unless given), and forgets a persisted one. */
  override readonly reset = async (options?: WorldOptions): Promise<void> => {
    await resetWithScenarios(this.instance, this.startingWorld(options))
    this.persistence?.forget()
  }

  readonly use = (...handlers: RequestHandler[]): void => this.worker.use(...handlers)
  /** Drops the handlers added with `use` and the overrides set with `override`. */
  readonly resetHandlers = (): void => {
    this.worker.resetHandlers()
    this.instance.overrides.clear()
  }
  /** Stops answering the page's requests (msw 3's worker stops asynchronously: await it there). */
  readonly stop = (): Promise<void> | void => this.worker.stop()
}

/**
 * Starts the mock in the browser: msw's service worker answers the page's requests to
 * `/v1/...` (and the control API under `/__mock/`) from a world seeded in the page, the
 * same world as Node and the standalone server build from the same seed. Other requests
 * (the app's own pages and assets) pass through. Await it before the app's first request.
 * @example
 * await startMockWorker({ seed: 1, persist: true })
 * renderApp()
 */
export async function startMockWorker(options: MockWorkerOptions = {}): Promise<MockWorker> {
  // First: in Node, what to use instead, before any seeding.
  const setupWorker = await loadSetupWorker('browser')
  options = { ...options, scenario: options.scenario ?? pageScenario() }
  const instance = await seedInstance(options)
  const scenarios = parseScenarioNames(options.scenario).join(',')
  const key =
    typeof options.persist === 'string'
      ? options.persist
      : `agent-console-mock:${options.seed ?? instance.worldOptions.seed}${scenarios ? `:${scenarios}` : ''}`
  const persistence = options.persist ? await persistInLocalStorage(instance, key) : undefined
  const mock = new MockWorker(instance, options, setupWorker, persistence)
  await startPassingOn(mock.worker, {
    url: options.serviceWorkerUrl ?? '/mockServiceWorker.js',
    quiet: options.quiet ?? true,
  })
  return mock
}

/** The page URL's `?scenario=` (MSW's recommended switch), if any. */
function pageScenario(): string | undefined {
  return typeof location === 'undefined'
    ? undefined
    : (new URLSearchParams(location.search).get('scenario') ?? undefined)
}

/** The API's bodies as the app receives and sends them (types only). */
export type * from '../model/api/wire-types.js'
export type * from '../core/overrides/types.js'
export { InvalidOverrideError } from '../core/overrides/answer.js'
