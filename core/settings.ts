import { createTokenVerifier, DEVELOPMENT_JWT_SECRET } from '../model/auth/tokens.js'
import { DEFAULT_MAX_BODY_BYTES } from '../fastapi/http/body.js'
import { httpError } from '../fastapi/http/responses.js'
import { MockInstance } from './instance/instance.js'
import { SnapshotError } from './instance/snapshots.js'
import {
  PATH_HEADER_OR_COOKIE_SESSIONS,
  SESSION_FROM_HEADER,
  SESSION_HEADER,
  type Sessions,
  type SessionTransport,
} from './instance/sessions.js'
import type { WorldOptions } from '../factories/world.js'
import type { ControlGuard } from './control-guard.js'
import { DEV_CORS, type CorsSettings } from './cors.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import { SCENARIO_HEADER, ScenarioRegistry, type Scenario } from './scenarios/index.js'
import { BUILTIN_SCENARIOS } from './scenarios/builtin.js'

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
}

export type CoreSettings = ReturnType<typeof resolveSettings>

export function resolveSettings(options: CoreOptions) {
  const baseUrl = options.baseUrl ?? '*'
  const jwtSecret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  return {
    base: baseUrl === '*' ? '*' : new URL(baseUrl).origin,
    claim: options.claim ?? 'api',
    profile: resolveProfile(options.profile as ProfileOptions),
    jwtSecret,
    verifyToken: createTokenVerifier(jwtSecret),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    delayMs: options.delayMs ?? 0,
    control: options.control ?? true,
    controlGuard: options.controlGuard,
    cors: options.cors === true ? DEV_CORS : options.cors || undefined,
    sessionTransport: options.sessions ?? PATH_HEADER_OR_COOKIE_SESSIONS,
    sessionHeaders: [...(options.sessions ?? PATH_HEADER_OR_COOKIE_SESSIONS).headers, SCENARIO_HEADER],
    scenarios: new ScenarioRegistry(BUILTIN_SCENARIOS, options.scenarios ?? []),
    logError: options.logError ?? ((message: string, error: unknown) => console.error(message, error)),
    instanceFor: instanceResolver(options),
    sessions: options.instance instanceof MockInstance ? undefined : options.instance,
    configuredWorld: configuredWorld(options),
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

/** The instance a request works on; a malformed session key answers 400. */
function instanceResolver({ instance, sessions }: CoreOptions) {
  return async (request: Request): Promise<MockInstance> => {
    if (instance instanceof MockInstance) return instance
    const key = (sessions ?? PATH_HEADER_OR_COOKIE_SESSIONS).keyOf(request)
    if ('invalid' in key)
      throw httpError(400, `Invalid ${key.named}: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -`)
    const from = request.headers.get(SESSION_FROM_HEADER)
    if (from === null) return instance.instance(key.key)
    if (key.key === undefined)
      throw httpError(
        400,
        `${SESSION_FROM_HEADER} names the snapshot a new session starts from: name the session too (${SESSION_HEADER})`,
      )
    return instance.instance(key.key, (created) => startFrom(created, from))
  }
}

/** A new session's world from a snapshot: an unknown one answers 404 (and the session is not kept). */
async function startFrom(created: MockInstance, snapshot: string): Promise<void> {
  try {
    await created.restoreSnapshot(snapshot)
  } catch (error) {
    if (error instanceof SnapshotError) throw httpError(404, error.message)
    throw error
  }
}
