import type { RequestHandler } from 'msw'
import { setupWorker, type SetupWorker } from 'msw/browser'
import type { Fixtures } from '../auth/fixtures.js'
import { DEVELOPMENT_JWT_SECRET, mintToken, type TokenClaims } from '../auth/tokens.js'
import type { WorldOptions } from '../factories/world.js'
import { createHandlers } from '../handlers/index.js'
import { MockInstance } from '../mock/instance.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import type { World } from '../model/world.js'
import { persistInLocalStorage } from './persistence.js'

export interface MockWorkerOptions extends WorldOptions {
  profile?: ProfileOptions
  jwtSecret?: string
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

export interface MockWorker {
  readonly instance: MockInstance
  readonly world: World
  readonly fixtures: Fixtures
  readonly profile: Profile
  readonly worker: SetupWorker
  mintToken(claims: TokenClaims): Promise<string>
  /** Back to a freshly seeded world (and forgets a persisted one). */
  reset(options?: WorldOptions): Promise<void>
  use(...handlers: RequestHandler[]): void
  resetHandlers(): void
  stop(): void
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
  const profile = resolveProfile(options.profile)
  const jwtSecret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  const instance = await MockInstance.create({ seed: options.seed, personasPerTeam: options.personasPerTeam, jwtSecret })
  const persistence = options.persist ? await persistInLocalStorage(instance, typeof options.persist === 'string' ? options.persist : `agent-console-mock:${instance.worldOptions.seed}`) : undefined
  const worker = setupWorker(...createHandlers({ instance, profile, jwtSecret, claim: 'api', delayMs: options.delayMs }))
  if (persistence) worker.events.on('response:mocked', () => persistence.save())
  await worker.start({
    serviceWorker: { url: options.serviceWorkerUrl ?? '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: options.quiet ?? true,
  })
  return {
    instance,
    get world() {
      return instance.world
    },
    get fixtures() {
      return instance.fixtures
    },
    profile,
    worker,
    mintToken: (claims) => mintToken(claims, jwtSecret),
    async reset(next) {
      await instance.reset(next)
      persistence?.forget()
    },
    use: (...handlers) => worker.use(...handlers),
    resetHandlers: () => worker.resetHandlers(),
    stop: () => worker.stop(),
  }
}
