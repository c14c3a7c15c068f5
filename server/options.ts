import type { InstanceOptions } from '../core/instance/instance.js'
import type { Scenario } from '../core/scenarios/index.js'
import type { ProfileOptions } from '../model/profile.js'
import type { ForwardOptions } from '../core/forward-routes.js'
import type { Logger } from './logger.js'
import type { ForwardTimeouts } from './proxy/forward.js'
import { checkOptionNames } from '../core/option-names.js'

/** What of an instance's options a server takes: its budget, snapshots and kept JSON are the server's to make. */
type ServerInstanceOptions = Pick<InstanceOptions, 'seed' | 'personasPerTeam' | 'jwtSecret' | 'journalSize'>

/** What `createMockApp` is given; server/settings.ts says what is taken where an option is left out. */
export interface AppOptions extends ServerInstanceOptions {
  profile?: ProfileOptions
  /** Milliseconds added before every API answer. */
  delayMs?: number
  maxBodyBytes?: number
  /** Serve the control API under /__mock/. @default true */
  control?: boolean
  /** Session worlds kept at most. @default 100 */
  sessionLimit?: number
  /** Bytes the worlds, snapshots, journals and recorded contracts may hold (beyond: least recently used sessions go, then 503). @default half of V8's heap limit less 96 MiB (at least 16 MiB) */
  maxMemoryBytes?: number
  /** Origins of pages trusted with the control API and changes to the API besides loopback ones (`--allow-origin`). */
  allowOrigins?: string[]
  /** Host names the control API answers besides loopback names (`--allowed-host`). */
  allowedHosts?: string[]
  /** Demand this `X-Mock-Control-Token` on every control request. */
  controlToken?: string
  /** Answer CORS as a FastAPI app with Starlette's `CORSMiddleware` for a dev frontend does; `false`: plain FastAPI. @default true */
  cors?: boolean
  logger?: Logger
  /**
   * Scenarios the default world and every new session start with (and return to on a reset), in
   * order: names, or one comma-separated string. An unknown name fails, listing the known ones.
   */
  scenario?: string | readonly string[]
  /** Scenarios of your own (`defineScenario`, `--config`), beside the built-in ones. */
  scenarios?: readonly Scenario[]
  /**
   * Path prefixes sent on to a real server and answered byte for byte (`--forward`), ahead of the mock's own
   * operations, e.g. `{ '/v1/agents': 'http://127.0.0.1:8000' }`.
   */
  forward?: ForwardOptions
  /** Bounds on a forwarded server's time to connect and to answer (504 past them). @default 10 s and 60 s */
  forwardTimeouts?: Partial<ForwardTimeouts>
  /**
   * A team's own OpenAPI document, parsed (`--openapi` reads a file or URL): the operations of it the mock does
   * not implement are answered from it (docs/openapi.md).
   */
  openapi?: object
}

/** What `startServer` is given: an app's options, where to listen, and the state file to keep. */
export interface ServerOptions extends AppOptions {
  /** @default 4010 */
  port?: number
  /** Only loopback unless told otherwise. @default '127.0.0.1' */
  host?: string
  /** Keep the default world in this file: loaded at start; every change on disk before it is answered. */
  stateFile?: string
  /** Accept the public development JWT secret on a server bound beyond loopback. @default false */
  insecureDevSecret?: boolean
}

/** Every option `createMockApp` takes. */
export const APP_OPTION_NAMES = [
  'seed',
  'personasPerTeam',
  'jwtSecret',
  'journalSize',
  'profile',
  'delayMs',
  'maxBodyBytes',
  'control',
  'sessionLimit',
  'maxMemoryBytes',
  'allowOrigins',
  'allowedHosts',
  'controlToken',
  'cors',
  'logger',
  'scenario',
  'scenarios',
  'forward',
  'forwardTimeouts',
  'openapi',
] as const satisfies ReadonlyArray<keyof AppOptions>

/** Every option `startServer` takes. */
export const SERVER_OPTION_NAMES = [
  ...APP_OPTION_NAMES,
  'port',
  'host',
  'stateFile',
  'insecureDevSecret',
] as const satisfies ReadonlyArray<keyof ServerOptions>

/** The most session worlds a server keeps, as the CLI's `--sessions` takes. */
const MAX_SESSION_LIMIT = 10_000
/** The longest forwarding timeout (1 hour), as the CLI's `--connect-timeout` and `--answer-timeout` take. */
const MAX_FORWARD_TIMEOUT_MS = 3_600_000

/**
 * The values of an app's options, checked at start as the CLI checks its flags: a value of the wrong kind failed
 * deep inside (`map is not a function`) or was taken silently (a session limit of 0, a budget of -1 bytes). The
 * options checked elsewhere (seed and size, jwtSecret, maxBodyBytes, delayMs, scenario, openapi, controlToken,
 * each origin of allowOrigins) are not checked again here.
 * @throws TypeError or RangeError naming the option and what it takes
 */
export function checkAppOptions(options: AppOptions): void {
  const { cors, control, allowOrigins, allowedHosts, sessionLimit, maxMemoryBytes, journalSize } = options
  checkBoolean('cors', cors, "true (answer CORS as Starlette's CORSMiddleware) or false (plain FastAPI)")
  checkBoolean('control', control, 'true (serve the control API under /__mock/) or false')
  checkStrings('allowOrigins', allowOrigins, "origins such as ['http://app.test:3000']")
  checkStrings('allowedHosts', allowedHosts, "host names such as ['mock.test']")
  checkInteger('sessionLimit', sessionLimit, 1, MAX_SESSION_LIMIT, 'session worlds')
  checkInteger('maxMemoryBytes', maxMemoryBytes, 1, Number.MAX_SAFE_INTEGER, 'bytes')
  checkInteger('journalSize', journalSize, 1, Number.MAX_SAFE_INTEGER, 'entries')
  checkForward(options.forward)
  checkForwardTimeouts(options.forwardTimeouts)
}

/**
 * The values of the options `startServer` takes besides an app's, checked as {@link checkAppOptions} checks those.
 * @throws TypeError or RangeError naming the option and what it takes
 */
export function checkServerOptions(options: ServerOptions): void {
  checkAppOptions(options)
  const { host, stateFile, insecureDevSecret } = options
  if (host !== undefined && (typeof host !== 'string' || host.trim() === ''))
    throw new TypeError(
      `host must be the host name or address to listen on, such as '127.0.0.1' or '0.0.0.0', got ${shown(host)}.`,
    )
  if (stateFile !== undefined && typeof stateFile !== 'string')
    throw new TypeError(`stateFile must be the path of the file to keep the world in, got ${shown(stateFile)}.`)
  if (stateFile?.trim() === '')
    throw new RangeError(
      'stateFile is empty: name the file to keep the world in, or leave the option out to keep none.',
    )
  checkBoolean('insecureDevSecret', insecureDevSecret, 'true or false')
}

/** A value as a refusal shows it: JSON where it has one (`"yes"`, `-1`), else its kind. */
const shown = (value: unknown): string =>
  typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value))

function checkBoolean(name: string, value: unknown, takes: string): void {
  if (value !== undefined && typeof value !== 'boolean')
    throw new TypeError(`${name} must be ${takes}, got ${shown(value)}.`)
}

function checkStrings(name: string, value: unknown, takes: string): void {
  if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === 'string')))
    throw new TypeError(`${name} must be a list of ${takes}, got ${shown(value)}.`)
}

function checkInteger(name: string, value: unknown, min: number, max: number, unit: string): void {
  if (value === undefined || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max)) return
  const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`
  throw new RangeError(`${name} must be an integer ${range} (${unit}), got ${shown(value)}.`)
}

/** `forward`: an object of path prefixes to URLs (forwardRoutes checks each prefix and URL). */
function checkForward(forward: unknown): void {
  const isMap =
    typeof forward === 'object' &&
    forward !== null &&
    !Array.isArray(forward) &&
    Object.values(forward).every((target) => typeof target === 'string')
  if (forward !== undefined && !isMap)
    throw new TypeError(
      `forward must map path prefixes to URLs, such as { '/v1/agents': 'http://127.0.0.1:8000' }, got ${shown(forward)}.`,
    )
}

const FORWARD_TIMEOUT_NAMES = ['connectTimeoutMs', 'answerTimeoutMs'] as const satisfies ReadonlyArray<
  keyof ForwardTimeouts
>

/** `forwardTimeouts`: either bound, in milliseconds, as the CLI's timeouts take them. */
function checkForwardTimeouts(timeouts: unknown): void {
  if (timeouts === undefined) return
  if (typeof timeouts !== 'object' || timeouts === null || Array.isArray(timeouts))
    throw new TypeError(
      `forwardTimeouts must be an object such as { connectTimeoutMs: 10000, answerTimeoutMs: 60000 }, got ${shown(timeouts)}.`,
    )
  checkOptionNames('forwardTimeouts', timeouts, FORWARD_TIMEOUT_NAMES)
  for (const name of FORWARD_TIMEOUT_NAMES)
    checkInteger(
      `forwardTimeouts.${name}`,
      (timeouts as Partial<ForwardTimeouts>)[name],
      1,
      MAX_FORWARD_TIMEOUT_MS,
      'milliseconds',
    )
}
