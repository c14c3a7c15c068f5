import type { RequestHandler } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import { createHandlers } from '../handlers/index.js'
import { MOCK_OPTION_NAMES, MockHandle, seedInstance, type MockOptions } from '../core/instance/handle.js'
import type { MockInstance } from '../core/instance/instance.js'
import { listen, type UnhandledRequestStrategy } from './msw-adapter.js'
import { forwardHandlers } from './forward.js'
import { forwardRoutes, type ForwardOptions, type ForwardTimeouts } from '../core/forward-routes.js'
import { loadOpenApi, type OpenApiSource } from './openapi-source.js'
import type { ServedDocument } from '../fastapi/served/document.js'
import { checkJwtSecret, checkMaxBodyBytes, originOf } from '../core/settings.js'
import { checkOptionNames } from '../core/option-names.js'

export interface MockServerOptions extends Omit<MockOptions, 'openapi'> {
  /** The origin the mocked API answers on; every path of it is the API. @default 'http://localhost' */
  baseUrl?: string
  /** Request bodies larger than this many bytes answer 413. @default 1 MiB */
  maxBodyBytes?: number
  /**
   * What a request no handler answers does (another origin): `'error'`, `'warn'`, `'bypass'`, or a function called
   * with the request and `print` (`print.warning()`, `print.error()` log msw's warning or error): the request goes on
   * to the network unless it throws. Called as msw 2 calls it, on msw 2 and msw 3 (whose `onUnhandledFrame` it is).
   * @default 'error'
   */
  onUnhandledRequest?: UnhandledRequestStrategy
  /**
   * Path prefixes of `baseUrl` sent on to a real server with `fetch`, ahead of the mock's operations, e.g.
   * `{ '/v1/agents': 'http://127.0.0.1:8000' }`. The answer comes back decoded (fetch undoes a content-encoding).
   */
  forward?: ForwardOptions
  /** Bounds on a forwarded server's time (their sum bounds the whole exchange here): 504 past it. */
  forwardTimeouts?: Partial<ForwardTimeouts>
  /**
   * A team's own OpenAPI document (a file's path, a URL, or the parsed JSON): the operations of it the mock does
   * not implement are answered from it (docs/openapi.md).
   */
  openapi?: OpenApiSource
}

/** Whether a mock server of this module intercepts fetch right now (only one may). */
let listening = false

/** Every option `createMockServer` takes. */
const OPTION_NAMES = [
  ...MOCK_OPTION_NAMES,
  'baseUrl',
  'maxBodyBytes',
  'onUnhandledRequest',
  'forward',
  'forwardTimeouts',
] as const satisfies ReadonlyArray<keyof MockServerOptions>

/** Fails the type check when an option is added to {@link MockServerOptions} but not to the list above. */
type Unlisted = Exclude<keyof MockServerOptions, (typeof OPTION_NAMES)[number]>
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true

const UNHANDLED_STRATEGIES: readonly UnhandledRequestStrategy[] = ['error', 'warn', 'bypass']

/**
 * The options, checked before the world is seeded: a mistake is refused with a sentence naming the option, where
 * it would otherwise be ignored or fail later (an empty secret at the first token, a bad strategy at the first
 * unhandled request, a body limit of 0 as a 413 to every body).
 */
function checkOptions(options: MockServerOptions): void {
  void everyOptionListed
  checkOptionNames('createMockServer', options, OPTION_NAMES)
  originOf(options.baseUrl ?? 'http://localhost')
  if (options.jwtSecret !== undefined) checkJwtSecret(options.jwtSecret)
  if (options.maxBodyBytes !== undefined) checkMaxBodyBytes(options.maxBodyBytes)
  const strategy = options.onUnhandledRequest
  if (strategy !== undefined && typeof strategy !== 'function' && !UNHANDLED_STRATEGIES.includes(strategy))
    throw new RangeError(
      `onUnhandledRequest must be one of ${UNHANDLED_STRATEGIES.map((name) => `'${name}'`).join(', ')} or a function ` +
        `(request, print) => void, got ${JSON.stringify(strategy) ?? String(strategy)}.`,
    )
}

/**
 * The mock API in this process, for Node tests: `fetch` to `baseUrl` is answered by the
 * mock's handlers, over a world seeded for it.
 */
export class MockServer extends MockHandle {
  /** The origin the API answers on, without a trailing slash. */
  readonly baseUrl: string
  /** The underlying msw server, for anything else. */
  readonly server: SetupServer

  /** @internal use `createMockServer()` */
  constructor(instance: MockInstance, options: MockServerOptions & { openapi?: ServedDocument }) {
    super(instance, options)
    this.baseUrl = originOf(options.baseUrl ?? 'http://localhost')
    const { profile, jwtSecret, baseUrl } = this
    this.server = setupServer(
      ...forwardHandlers(forwardRoutes(options.forward), this.baseUrl, instance, options.forwardTimeouts),
      ...createHandlers({
        instance,
        profile,
        jwtSecret,
        baseUrl,
        claim: 'all',
        maxBodyBytes: options.maxBodyBytes,
        scenarios: options.scenarios,
        openapi: options.openapi,
      }),
    )
  }

  /** An absolute URL of the mocked API. @example mock.url('/v1/personas/?limit=5') */
  readonly url = (path: string): string => new URL(path, this.baseUrl).href

  /** Prepends handlers for the current test (msw's `server.use`). */
  readonly use = (...handlers: RequestHandler[]): void => this.server.use(...handlers)

  /** Drops the handlers added with `use` and the overrides set with `override`. */
  readonly resetHandlers = (): void => {
    this.server.resetHandlers()
    this.instance.overrides.clear()
  }

  #closed = false

  /**
   * Stops intercepting requests. A second call does nothing: msw 3's server would throw, and
   * it must not free the place of a mock created since.
   */
  readonly close = (): void => {
    if (this.#closed) return
    this.#closed = true
    this.server.close()
    listening = false
  }
}

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
  checkOptions(options)
  const { openapi: source, ...rest } = options
  const openapi = source === undefined ? undefined : await loadOpenApi(source)
  const mock = new MockServer(await seedInstance(rest), { ...rest, openapi })
  listen(mock.server, options.onUnhandledRequest ?? 'error')
  listening = true
  return mock
}

export type { UnhandledRequestCallback, UnhandledRequestPrint, UnhandledRequestStrategy } from './msw-adapter.js'
export type { Fixtures, FixtureTokens } from '../factories/fixtures.js'
export type { World } from '../model/world.js'
export type { Profile, ProfileOptions } from '../model/profile.js'
export type { MockInstance } from '../core/instance/instance.js'
export type { Clock, ClockTime } from '../core/instance/clock.js'
export { RecordError, type Builders, type Creators, type Overrides } from '../factories/build.js'
export { defineScenario, UnknownScenarioError, type Scenario, type ScenarioContext } from '../core/scenarios/index.js'
export type * from '../core/overrides/types.js'
export { InvalidOverrideError } from '../core/overrides/answer.js'
export type * from '../model/api/wire-types.js'
