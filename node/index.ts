import type { RequestHandler } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import type { Fixtures } from '../auth/fixtures.js'
import { DEVELOPMENT_JWT_SECRET, mintToken, type TokenClaims } from '../auth/tokens.js'
import type { WorldOptions } from '../factories/world.js'
import { createHandlers } from '../handlers/index.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import { MockInstance } from '../mock/instance.js'
import type { World } from '../model/world.js'

export interface MockServerOptions extends WorldOptions {
  /** Profile settings (`decisions.md`). */
  profile?: ProfileOptions
  /** The secret tokens are signed and checked with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /** The origin the mocked API answers on; every path of it is the API. @default 'http://localhost' */
  baseUrl?: string
  /** Request bodies larger than this many bytes answer 413. @default 1 MiB */
  maxBodyBytes?: number
  /** What a request no handler answers does (another origin). @default 'error' */
  onUnhandledRequest?: 'error' | 'warn' | 'bypass'
}

export interface MockServer {
  /** The origin the API answers on, without a trailing slash. */
  readonly baseUrl: string
  /** The mock backend: world, fixtures, faults and the request journal. */
  readonly instance: MockInstance
  /** The current world (a new one after `reset()`): @msw/data collections to arrange or inspect. */
  readonly world: World
  readonly profile: Profile
  /** Ids of the seeded records and ready tokens, for the current seed. */
  readonly fixtures: Fixtures
  /** An absolute URL of the mocked API. @example mock.url('/v1/personas/?limit=5') */
  url(path: string): string
  /** Signs claims with the mock's secret. */
  mintToken(claims: TokenClaims): Promise<string>
  /** Back to a freshly seeded world (the same seed and size unless given); faults are cleared. */
  reset(options?: WorldOptions): Promise<void>
  /** Prepends handlers for the current test (msw's `server.use`). */
  use(...handlers: RequestHandler[]): void
  /** Drops the handlers added with `use`. */
  resetHandlers(): void
  /** Stops intercepting requests. */
  close(): void
  /** The underlying msw server, for anything else. */
  readonly server: SetupServer
}

/** Whether a mock server of this module intercepts fetch right now (only one may). */
let listening = false

/**
 * Starts intercepting `fetch` in this process with the mock API, over a freshly seeded
 * world. Every path of `baseUrl` answers as the FastAPI service would.
 * @example
 * const mock = await createMockServer({ seed: 7 })
 * const res = await fetch(mock.url('/v1/personas/'), {
 *   headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
 * })
 * mock.close()
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  if (listening) {
    throw new Error(
      'agent-console-mock: another mock server is already intercepting fetch in this process. ' +
        'Call close() on it before creating a new one (msw patches the global fetch once per process).',
    )
  }
  const baseUrl = new URL(options.baseUrl ?? 'http://localhost').origin
  const profile = resolveProfile(options.profile)
  const jwtSecret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  const instance = await MockInstance.create({ seed: options.seed, personasPerTeam: options.personasPerTeam, jwtSecret })
  const server = setupServer(
    ...createHandlers({ instance, profile, jwtSecret, baseUrl, claim: 'all', maxBodyBytes: options.maxBodyBytes }),
  )
  server.listen({ onUnhandledRequest: options.onUnhandledRequest ?? 'error' })
  listening = true
  return {
    baseUrl,
    instance,
    get world() {
      return instance.world
    },
    profile,
    get fixtures() {
      return instance.fixtures
    },
    url: (path) => new URL(path, baseUrl).href,
    mintToken: (claims) => mintToken(claims, jwtSecret),
    reset: (next) => instance.reset(next),
    use: (...handlers) => server.use(...handlers),
    resetHandlers: () => server.resetHandlers(),
    close() {
      server.close()
      listening = false
    },
    server,
  }
}

export type { Fixtures, FixtureTokens } from '../auth/fixtures.js'
export type { World } from '../model/world.js'
export type { Profile, ProfileOptions } from '../model/profile.js'
