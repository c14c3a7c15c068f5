import type { InstanceOptions } from '../core/instance/instance.js'
import type { Scenario } from '../core/scenarios/index.js'
import type { ProfileOptions } from '../model/profile.js'
import type { ForwardOptions } from '../core/forward-routes.js'
import type { Logger } from './logger.js'
import type { ForwardTimeouts } from './proxy/forward.js'

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
