import { httpUrl } from './http-url.js'
import { createTokenVerifier, DEVELOPMENT_JWT_SECRET } from '../model/auth/tokens.js'
import { DEFAULT_MAX_BODY_BYTES } from './limits.js'
import { MockInstance } from './instance/instance.js'
import { PATH_HEADER_OR_COOKIE_SESSIONS, type Sessions, type SessionTransport } from './instance/sessions.js'
import { instanceResolver } from './request-instance.js'
import type { WorldOptions } from '../factories/world.js'
import type { ControlGuard } from './control-guard.js'
import { DEV_CORS, type CorsSettings } from './cors.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import { SCENARIO_HEADER, ScenarioRegistry, type Scenario } from './scenarios/index.js'
import { BUILTIN_SCENARIOS } from './scenarios/builtin.js'
import { ServedDocument } from '../fastapi/served/document.js'

export interface CoreOptions {
  /** The mock backend: one instance, or sessions (an instance per session key). */
  instance: MockInstance | Sessions
  /** The seed `POST /__mock/reset` without one returns to. @default the instance's when the core is created */
  seed?: number
  /** The size `POST /__mock/reset` without one returns to. @default the instance's when the core is created */
  personasPerTeam?: number
  /**
   * How a request names its session, when `instance` is sessions.
   * @default the path (`/__session/<key>/v1/...`), else the X-Mock-Session header, else the mock_session cookie
   */
  sessions?: SessionTransport
  /** Profile settings (`decisions.md`); the defaults where not given. */
  profile?: Profile | ProfileOptions
  /** The HS256 secret tokens are checked with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /** The origin the API is served on, e.g. `http://localhost:4010`; `*` for any origin. @default '*' */
  baseUrl?: string
  /**
   * Which requests the mock answers: `api`, paths under `/v1` and `/__mock/` (so a browser
   * app's own pages and assets pass through); `all`, every path of the base URL, with
   * FastAPI's 404/405/307 for unknown ones, `/openapi.json` and `/docs`.
   * @default 'api'
   */
  claim?: 'api' | 'all'
  /** Request bodies larger than this many bytes answer 413. @default 1 MiB */
  maxBodyBytes?: number
  /** Milliseconds added before every API answer (faults may add more). @default 0 */
  delayMs?: number
  /** Serve the control API under `/__mock/`. @default true */
  control?: boolean
  /**
   * Answer CORS as Starlette's `CORSMiddleware` with these settings, for pages of other origins
   * (a standalone server needs it; msw's hosts do not); `true` is {@link DEV_CORS}.
   * @default false
   */
  cors?: boolean | CorsSettings
  /**
   * Who may drive the control API (a standalone server sets it; in msw's hosts only the page
   * or the test process itself reaches the mock). @default none: no checks
   */
  controlGuard?: ControlGuard
  /** Scenarios of your own (`defineScenario`), beside the built-in ones; one of a built-in's name replaces it. */
  scenarios?: readonly Scenario[]
  /** Where a bug of the mock (an exception) is reported. @default console.error */
  logError?: (message: string, error: unknown) => void
  /**
   * A team's own OpenAPI document (its `/openapi.json`, parsed): every operation of it the mock does not
   * implement is answered from it, by convention (docs/openapi.md). @default none
   */
  openapi?: ServedDocument | object
}

/** The options of a core that do not depend on the backend it serves or the world a reset returns to. */
export type CoreConfigOptions = Omit<CoreOptions, 'instance' | 'seed' | 'personasPerTeam'>

/** A core's options with every default applied, but for the backend it serves. */
export interface CoreConfig {
  /** The origin the API is served on, or `*` for any. */
  base: string
  claim: 'api' | 'all'
  profile: Profile
  jwtSecret: string
  maxBodyBytes: number
  delayMs: number
  control: boolean
  controlGuard: ControlGuard | undefined
  /** No CORS when undefined. */
  cors: CorsSettings | undefined
  sessionTransport: SessionTransport
  /** The scenarios known: built-in and the user's own. */
  scenarios: ScenarioRegistry
  logError: (message: string, error: unknown) => void
  /** The served OpenAPI document, read; none when undefined. */
  openapi: ServedDocument | undefined
}

/** What a core runs with: its config, and what follows from it and from the backend it serves. */
export interface CoreSettings extends CoreConfig {
  verifyToken: ReturnType<typeof createTokenVerifier>
  /** Request headers CORS lets through besides the usual ones: the session transport's and the scenario header. */
  sessionHeaders: string[]
  /** The instance a request works on; a malformed session key answers 400. */
  instanceFor: (request: Request) => Promise<MockInstance>
  /** The sessions served (none: one instance). */
  sessions: Sessions | undefined
  /** The seed and size a reset without options returns to. */
  configuredWorld: Required<WorldOptions>
}

/** A core's settings from its options: the one place a core's defaults are applied. */
export function resolveSettings(options: CoreOptions): CoreSettings {
  return settingsFor(resolveCoreConfig(options), options.instance, configuredWorld(options))
}

/** The options of a core with every default applied; a host that resolves its own options starts here. */
export function resolveCoreConfig(options: CoreConfigOptions): CoreConfig {
  const baseUrl = options.baseUrl ?? '*'
  return {
    base: baseUrl === '*' ? '*' : originOf(baseUrl),
    claim: options.claim ?? 'api',
    profile: resolveProfile(options.profile as ProfileOptions),
    jwtSecret: checkJwtSecret(options.jwtSecret ?? DEVELOPMENT_JWT_SECRET),
    maxBodyBytes: checkMaxBodyBytes(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
    delayMs: checkDelay(options.delayMs ?? 0),
    control: options.control ?? true,
    controlGuard: options.controlGuard,
    cors: options.cors === true ? DEV_CORS : options.cors || undefined,
    sessionTransport: options.sessions ?? PATH_HEADER_OR_COOKIE_SESSIONS,
    scenarios: new ScenarioRegistry(BUILTIN_SCENARIOS, options.scenarios ?? []),
    logError: options.logError ?? ((message: string, error: unknown) => console.error(message, error)),
    openapi: servedDocumentOf(options.openapi),
  }
}

/**
 * A document as given, read (the same object each time, so its seeded records are built once).
 * @throws DocumentError when it is not an OpenAPI 3.0 or 3.1 document
 */
function servedDocumentOf(openapi: ServedDocument | object | undefined): ServedDocument | undefined {
  if (openapi === undefined || openapi instanceof ServedDocument) return openapi
  const read = readDocumentsCache.get(openapi) ?? new ServedDocument(openapi)
  readDocumentsCache.set(openapi, read)
  return read
}

/** Documents read, by the JSON they were read from: a host that builds a core per test reads its document once. */
const readDocumentsCache = new WeakMap<object, ServedDocument>()

/**
 * The settings of a core with this config serving `backend`, whose reset without options
 * returns to `configured`. Derives what follows from them and applies no default.
 */
export function settingsFor(
  config: CoreConfig,
  backend: MockInstance | Sessions,
  configured: Required<WorldOptions>,
): CoreSettings {
  return {
    ...config,
    verifyToken: createTokenVerifier(config.jwtSecret),
    sessionHeaders: [...config.sessionTransport.headers, SCENARIO_HEADER],
    instanceFor: instanceResolver(backend, config.sessionTransport, config.controlGuard),
    sessions: backend instanceof MockInstance ? undefined : backend,
    configuredWorld: configured,
  }
}

/**
 * The seed and size a reset without options returns to: `seed` and `personasPerTeam` where
 * given, else the (default) instance's when the core is created, before any state is loaded
 * into it or any reset changes it.
 */
function configuredWorld({ instance, seed, personasPerTeam }: CoreOptions): Required<WorldOptions> {
  const created = (instance instanceof MockInstance ? instance : instance.primary).worldOptions
  return { seed: seed ?? created.seed, personasPerTeam: personasPerTeam ?? created.personasPerTeam }
}

/** The longest delay (2^31 - 1 ms, about 24.8 days): a timer takes a longer one as 1 ms, with only a warning. */
const MAX_DELAY_MS = 2 ** 31 - 1

/**
 * A `delayMs` option, checked: a timer would take a negative or non-number delay as none, and one past
 * {@link MAX_DELAY_MS} as 1 ms (Node's `TimeoutOverflowWarning`), silently.
 * @throws RangeError for anything but a number from 0 to {@link MAX_DELAY_MS}
 */
export function checkDelay(delayMs: number): number {
  if (!(typeof delayMs === 'number' && delayMs >= 0))
    throw new RangeError(`delayMs must be a number of milliseconds, 0 or more, got ${JSON.stringify(delayMs)}.`)
  if (delayMs <= MAX_DELAY_MS) return delayMs
  throw new RangeError(
    `delayMs must be at most ${MAX_DELAY_MS} milliseconds (about 24.8 days; a timer takes a longer delay as 1 ms), ` +
      `got ${JSON.stringify(delayMs)}.`,
  )
}

/**
 * A `jwtSecret` option, checked: HS256 takes no empty key, and Web Crypto's refusal (`Zero-length key is not
 * supported`) would come at the first token, naming no option.
 * @throws RangeError for anything but a non-empty string
 */
export function checkJwtSecret(jwtSecret: string): string {
  if (typeof jwtSecret === 'string' && jwtSecret.length > 0) return jwtSecret
  throw new RangeError(
    `jwtSecret must be a non-empty string, the HS256 secret tokens are signed with, got ${JSON.stringify(jwtSecret)}.`,
  )
}

/** The largest `maxBodyBytes` (1 GiB), as the CLI's `--max-body-bytes` takes. */
export const MAX_BODY_BYTES_LIMIT = 1024 * 1024 * 1024

/**
 * A `maxBodyBytes` option, checked: 0, a negative or a fraction would answer every body 413, and a string none.
 * @throws RangeError for anything but an integer from 1 to {@link MAX_BODY_BYTES_LIMIT}
 */
export function checkMaxBodyBytes(maxBodyBytes: number): number {
  if (Number.isInteger(maxBodyBytes) && maxBodyBytes >= 1 && maxBodyBytes <= MAX_BODY_BYTES_LIMIT) return maxBodyBytes
  throw new RangeError(
    `maxBodyBytes must be an integer from 1 to ${MAX_BODY_BYTES_LIMIT} (bytes), got ${JSON.stringify(maxBodyBytes)}.`,
  )
}

/**
 * The origin of a `baseUrl` option, or an error that names the option: an absolute `http:` or `https:` URL is
 * what msw matches requests against, and the API answers at `/v1` under it. A path would be dropped without a
 * word (the mock serves under no prefix), so one is refused; a trailing `/` is no path.
 * @throws RangeError for anything else (`not a url`, `/v1`, `ftp://host`, `http://localhost/api`)
 */
export function originOf(baseUrl: string): string {
  const url = httpUrl(baseUrl)
  if (!url)
    throw new RangeError(
      `baseUrl must be an absolute http or https URL, such as http://localhost:3000, got ${JSON.stringify(baseUrl)}.`,
    )
  if (url.pathname === '/' && !url.search && !url.hash) return url.origin
  throw new RangeError(
    `baseUrl is the origin the API answers on (at /v1 under it), without a path: give ${JSON.stringify(url.origin)}, ` +
      `got ${JSON.stringify(baseUrl)}. The mock serves under no path prefix; route a prefix such as /api to it with ` +
      "your dev server's proxy, or give your client the origin.",
  )
}
