import { httpUrl } from '../core/http-url.js'
import type { ControlGuard } from '../core/control-guard.js'
import { DEFAULT_SESSION_LIMIT } from '../core/limits.js'
import type { Scenario } from '../core/scenarios/index.js'
import { resolveCoreConfig, type CoreConfig } from '../core/settings.js'
import { checkWorldOptions, type WorldOptions } from '../factories/world.js'
import { checkControlToken, controlTokenFor, ownHostNames } from './exposure.js'
import { forwardRoutes, type ForwardRoute } from '../core/forward-routes.js'
import { defaultMemoryBudget } from './heap.js'
import type { Logger } from './logger.js'
import { APP_OPTION_NAMES, SERVER_OPTION_NAMES, type AppOptions, type ServerOptions } from './options.js'
import { checkAppOptions, checkServerOptions } from './option-values.js'
import { checkOptionNames } from '../core/option-names.js'
import type { ForwardTimeouts } from './proxy/forward.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'

/** A server's app settings: its options with every default applied, handed down as they are. */
export interface AppSettings {
  /** The default world's seed and size, which a reset without options returns to. */
  world: Required<WorldOptions>
  /** Entries each world's journal keeps; left out, the journal's own size. */
  journalSize: number | undefined
  sessionLimit: number
  maxMemoryBytes: number
  /** The scenarios the default world and every new session start with, in order. */
  startScenarios: readonly Scenario[]
  logger: Logger
  /** The core's settings but the sessions it serves: every path claimed, CORS and a control guard. */
  core: CoreConfig & { controlGuard: ControlGuard }
  /** Prefixes forwarded to real servers, longest first. */
  forward: ForwardRoute[]
  forwardTimeouts: Partial<ForwardTimeouts>
}

/** A server's settings: its app's, where it listens and the state file it keeps. */
export interface ServerSettings extends AppSettings {
  port: number
  host: string
  stateFile: string | undefined
}

/**
 * The settings `startServer` runs with, from its options: the one place a server's defaults are
 * applied. A server bound beyond loopback demands a control token (one made up if none is given)
 * and answers the control API under its own host names.
 * @throws Error for a server bound beyond loopback with the development JWT secret, unless told to accept it
 */
export function resolveServerSettings(options: ServerOptions = {}): ServerSettings {
  void everyOptionListed
  checkOptionNames('startServer', options, SERVER_OPTION_NAMES)
  checkServerOptions(options)
  const host = options.host ?? DEFAULT_HOST
  const app = resolveAppWith(options, (jwtSecret) =>
    controlGuardOf(
      options,
      [...(options.allowedHosts ?? []), ...ownHostNames(host)],
      controlTokenFor({ ...options, host, jwtSecret }),
    ),
  )
  return { ...app, port: checkPort(options.port ?? DEFAULT_PORT), host, stateFile: options.stateFile }
}

/** Fails the type check when an option is added to {@link ServerOptions} but not to its list of names. */
type Unlisted = Exclude<keyof ServerOptions, (typeof SERVER_OPTION_NAMES)[number]>
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true

/**
 * A `port` option, checked: Node would take a numeric string, and fail on anything else deep in `listen`.
 * @throws RangeError for anything but an integer from 0 (any free port) to 65535
 */
function checkPort(port: number): number {
  if (Number.isInteger(port) && port >= 0 && port <= 65_535) return port
  throw new RangeError(`port must be an integer from 0 (any free port) to 65535, got ${JSON.stringify(port)}.`)
}

/** The settings `createMockApp` runs with, from its options (an app does not know where it listens). */
export function resolveAppSettings(options: AppOptions = {}): AppSettings {
  checkOptionNames('createMockApp', options, APP_OPTION_NAMES)
  checkAppOptions(options)
  checkControlToken(options.controlToken)
  return resolveAppWith(options, () => controlGuardOf(options, options.allowedHosts ?? [], options.controlToken))
}

/** An app's settings, with the control guard `guardFor` gives for the resolved JWT secret. */
function resolveAppWith(options: AppOptions, guardFor: (jwtSecret: string) => ControlGuard): AppSettings {
  const logger = options.logger ?? console
  const core = resolveCoreConfig({
    profile: options.profile,
    jwtSecret: options.jwtSecret,
    claim: 'all',
    maxBodyBytes: options.maxBodyBytes,
    delayMs: options.delayMs,
    control: options.control,
    // A standalone server is reached from a dev frontend's own origin.
    cors: options.cors ?? true,
    scenarios: options.scenarios,
    openapi: options.openapi,
    logError: (message, error) => {
      if (!clientWentAway(error)) logger.error(message, error)
    },
  })
  return {
    world: checkWorldOptions(options),
    journalSize: options.journalSize,
    sessionLimit: options.sessionLimit ?? DEFAULT_SESSION_LIMIT,
    maxMemoryBytes: options.maxMemoryBytes ?? defaultMemoryBudget(),
    startScenarios: core.scenarios.resolve(options.scenario),
    logger,
    core: { ...core, controlGuard: guardFor(core.jwtSecret) },
    forward: forwardRoutes(options.forward),
    forwardTimeouts: { ...options.forwardTimeouts },
  }
}

const controlGuardOf = (options: AppOptions, allowedHosts: string[], token: string | undefined): ControlGuard => ({
  allowOrigins: (options.allowOrigins ?? []).map(allowedOrigin),
  allowedHosts,
  token,
})

/**
 * An `--allow-origin` value as browsers send an `Origin`: `http://App.test:3000/` is `http://app.test:3000`.
 * @throws Error for anything that is not an http(s) origin
 */
function allowedOrigin(value: string): string {
  const url = httpUrl(value)
  if (url && (url.pathname === '/' || url.pathname === '') && !url.search) return url.origin
  throw new Error(`--allow-origin takes an origin such as http://app.test:3000, got ${JSON.stringify(value)}`)
}

/**
 * Whether an error is Node's for a body its client stopped sending (the connection closed mid-body, or a chunk it
 * could not read refused): the client's going, not a failure of the mock, so not logged as one.
 */
const clientWentAway = (error: unknown): boolean =>
  error instanceof Error && error.message === 'aborted' && (error as NodeJS.ErrnoException).code === 'ECONNRESET'
