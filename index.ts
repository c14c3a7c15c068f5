/**
 * agent-console-mock: the runtime-independent core. Hosts import `agent-console-mock/node`
 * (and later `/browser`); this entry gives the pieces to build your own.
 */
export { createHandlers, handlersOf, type HandlerOptions } from './hosts/msw.js'
export { createCore, type Core, type CoreOptions } from './core/index.js'
export {
  createWorld,
  DEFAULT_SEED,
  DEFAULT_PERSONAS_PER_TEAM,
  MAX_PERSONAS_PER_TEAM,
  type WorldOptions,
} from './factories/world.js'
export { World, type WorldContents } from './model/world.js'
export { DEFAULT_PROFILE, Profile, resolveProfile, type ProfileOptions } from './model/profile.js'
export * as schemas from './model/schemas.js'
export * as requests from './model/requests.js'
export { buildFixtures, type Fixtures, type FixtureTokens } from './auth/fixtures.js'
export { Claims, Permission } from './auth/claims.js'
export { DEVELOPMENT_JWT_SECRET, MAX_TOKEN_LENGTH, mintToken, verifyToken, type TokenClaims } from './auth/tokens.js'
export { MockInstance, type InstanceOptions } from './mock/instance.js'
export { Sessions, SESSION_COOKIE, SESSION_HEADER, DEFAULT_SESSION_LIMIT } from './mock/sessions.js'
export { FaultsConfig } from './mock/faults.js'
export { StateError, STATE_FORMAT } from './mock/state.js'
export { Clock, type ClockState, type ClockTime } from './mock/clock.js'
export { InvalidOverrideError } from './mock/override-answer.js'
export type * from './mock/override-types.js'
export {
  defineScenario,
  ScenarioRegistry,
  SCENARIO_HEADER,
  UnknownScenarioError,
  type Scenario,
  type ScenarioContext,
  type ScenarioOverride,
  type ScenarioOverrideContext,
} from './mock/scenarios.js'
export { BUILTIN_SCENARIOS } from './mock/scenarios-builtin.js'
export {
  RecordError,
  RecordFactory,
  type Builders,
  type Creators,
  type Overrides,
  type RecordCollection,
} from './factories/build.js'
/** The API's bodies as a frontend receives and sends them (types only): `Persona`, `PersonaListResponse`, ... */
export type * from './api/wire-types.js'
