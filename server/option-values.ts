import { checkOptionNames } from '../core/option-names.js'
import type { AppOptions, ServerOptions } from './options.js'
import type { ForwardTimeouts } from './proxy/forward.js'

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
