/**
 * agent-console-mock (the package's "." entry): the mock as MSW request handlers, and the
 * runtime-independent pieces to build your own host. The hosts are `agent-console-mock/node`,
 * `/browser`, `/server`, and the kits `/playwright`, `/vitest`, `/vite`, `/storybook`.
 */
import { http, type HttpHandler } from 'msw'
import { createCore, type Core, type CoreOptions } from './app.js'
export { createCore, type Core, type CoreOptions } from './app.js'
export {
  createWorld,
  DEFAULT_SEED,
  DEFAULT_PERSONAS_PER_TEAM,
  MAX_PERSONAS_PER_TEAM,
  type WorldOptions,
} from '../factories/world.js'
export { World, type WorldContents } from '../model/world.js'
export { DEFAULT_PROFILE, Profile, resolveProfile, type ProfileOptions } from '../model/profile.js'
export * as schemas from '../model/schemas.js'
export * as requests from '../model/requests.js'
export { buildFixtures, type Fixtures, type FixtureTokens } from '../factories/fixtures.js'
export { Claims, Permission } from '../model/auth/claims.js'
export {
  DEVELOPMENT_JWT_SECRET,
  MAX_TOKEN_LENGTH,
  mintToken,
  verifyToken,
  type TokenClaims,
} from '../model/auth/tokens.js'
export { MockInstance, type InstanceOptions } from '../core/instance/instance.js'
export { Sessions, SESSION_COOKIE, SESSION_HEADER } from '../core/instance/sessions.js'
export { DEFAULT_SESSION_LIMIT } from '../core/limits.js'
export { FaultsConfig } from '../core/instance/faults.js'
export { StateError, STATE_FORMAT } from '../model/state/index.js'
export { Clock, type ClockState, type ClockTime } from '../core/instance/clock.js'
export { InvalidOverrideError } from '../core/overrides/answer.js'
export type * from '../core/overrides/types.js'
export {
  defineScenario,
  ScenarioRegistry,
  SCENARIO_HEADER,
  UnknownScenarioError,
  type Scenario,
  type ScenarioContext,
  type ScenarioOverride,
  type ScenarioOverrideContext,
} from '../core/scenarios/index.js'
export { BUILTIN_SCENARIOS } from '../core/scenarios/builtin.js'
export {
  RecordError,
  RecordFactory,
  type Builders,
  type Creators,
  type Overrides,
  type RecordCollection,
} from '../factories/build.js'
/** The API's bodies as a frontend receives and sends them (types only): `Persona`, `PersonaListResponse`, ... */
export type * from '../model/api/wire-types.js'

export type HandlerOptions = CoreOptions

/**
 * The mock as MSW request handlers, built with msw's public API only: one `http.all` whose
 * predicate asks the core whether it answers the request, and whose resolver hands the
 * request to it. The same array serves the browser worker, `setupServer`, the Playwright
 * fixture and the Express middleware; `server.use()` overrides come before it, as always.
 * @example setupServer(...createHandlers({ instance: await MockInstance.create({ seed: 1 }), claim: 'all' }))
 */
export function createHandlers(options: HandlerOptions): HttpHandler[] {
  return handlersOf(createCore(options))
}

/** The handlers of a core built already (a host that also needs the core itself). */
export const handlersOf = (core: Core): HttpHandler[] => [
  http.all(
    ({ request }) => core.claims(request),
    ({ request }) => core.fetch(request),
  ),
]
