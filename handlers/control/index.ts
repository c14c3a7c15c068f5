import type { Outcome } from '../../fastapi/http/reply.js'
import { CONTROL_PREFIX } from '../../core/control-guard.js'
import type { WorldOptions } from '../../factories/world.js'
import { httpError, jsonResponse, methodNotAllowed, notFound } from '../../fastapi/http/responses.js'
import { createRouter, type RouterOptions } from '../../fastapi/http/router.js'
import type { ServedApi } from '../documented/index.js'
import type { MockInstance } from '../../core/instance/instance.js'
import type { Sessions } from '../../core/instance/sessions.js'
import type { ScenarioRegistry } from '../../core/scenarios/index.js'
import type { Profile } from '../../model/profile.js'
import type { ServedDocument } from '../../fastapi/served/document.js'
import { clockRoutes } from './clock.js'
import { contractRoutes } from './contract.js'
import { faultRoutes } from './faults.js'
import { journalRoutes } from './journal.js'
import { operationRoutes } from './operations.js'
import { overrideRoutes } from './overrides.js'
import { recordRoutes } from './records.js'
import type { ControlCall, ControlRoute } from './route.js'
import { scenarioRoutes } from './scenarios.js'
import { sessionRoutes } from './sessions.js'
import { snapshotRoutes } from './snapshots.js'
import { stateRoutes } from './state.js'
import { tokenRoutes } from './tokens.js'
import { worldRoutes } from './world.js'
import { documentedStateCheck } from '../documented/state-check.js'

/** What the control API needs of the core. */
export interface ControlSettings {
  /** Serve the control API; switched off, every control path answers 404 and says so. */
  control: boolean
  jwtSecret: string
  instanceFor: (request: Request) => Promise<MockInstance>
  /** The server's session worlds (none: the core serves one world). */
  sessions?: Sessions
  /** The seed and size a reset without options returns to (the configured ones, not the last reset's). */
  configuredWorld: Required<WorldOptions>
  /** The API's profile: records the control API answers are written as the API writes them. */
  profile: Profile
  /** The scenarios known: built-in and the user's own. */
  scenarios: ScenarioRegistry
  /** The team's OpenAPI document the mock serves operations of (docs/openapi.md). */
  openapi: ServedDocument | undefined
}

/**
 * The control API's own routing, unlike the API's: no redirect of a trailing slash (a control
 * path is exact), and a 405 names every method its path answers.
 */
const CONTROL_ROUTING: RouterOptions = { redirectSlashes: false, allowFrom: 'every' }

/**
 * The control API: health, fixtures, reset, tokens, faults, the request journal and the
 * whole state, on the request's instance (so each session controls only its own world);
 * the list of routes, of operations (the API's own and the `served` ones of a document) and of
 * sessions, about the server.
 * @returns the answer to a request under {@link CONTROL_PREFIX}
 */
export function createControl(settings: ControlSettings, served?: ServedApi) {
  const routes = withIndex(controlRoutes(settings, served))
  // `name` only to be a router's route; a GET route answers HEAD, as Starlette answers its own routes.
  const route = createRouter(
    routes.map((entry) => ({ ...entry, name: `${entry.method} ${entry.path}`, head: entry.method === 'GET' })),
    CONTROL_ROUTING,
  )
  return async (request: Request, url: URL): Promise<Outcome> => {
    if (!settings.control) return httpError(404, 'The control API is switched off (--no-control)')
    const result = route(request.method, url.pathname.slice(CONTROL_PREFIX.length))
    if (result.kind === 'method_not_allowed') return methodNotAllowed(result.allow)
    if (result.kind !== 'match') return notFound()
    const call: ControlCall = { request, url, params: result.params }
    const { route: found } = result
    if ('server' in found) return found.server(call)
    return found.answer({ ...call, instance: await settings.instanceFor(request) })
  }
}

/** Every control route but the index, in the order `GET /__mock/` lists them. */
const controlRoutes = (settings: ControlSettings, served: ServedApi | undefined): ControlRoute[] => [
  ...worldRoutes(settings.configuredWorld),
  ...tokenRoutes(settings.jwtSecret),
  ...operationRoutes(served?.routes ?? []),
  ...faultRoutes(served?.routes.map((route) => route.name) ?? []),
  ...overrideRoutes(served?.overrides ?? new Map()),
  ...journalRoutes,
  ...contractRoutes(settings.profile, settings.openapi?.raw),
  ...stateRoutes(checkDocumented(settings)),
  ...clockRoutes,
  ...recordRoutes(settings.profile),
  ...scenarioRoutes(settings.scenarios, settings.configuredWorld),
  ...snapshotRoutes(checkDocumented(settings)),
  ...sessionRoutes(settings.sessions),
]

/** What an import over the control API checks of a served document's records (none without a document). */
const checkDocumented = ({ openapi }: ControlSettings) => openapi && documentedStateCheck(openapi)

/** The routes with `GET /__mock/` first, which lists them all: method, whole path, description. */
function withIndex(routes: readonly ControlRoute[]): ControlRoute[] {
  const all: ControlRoute[] = [
    {
      method: 'GET',
      path: '/',
      description: 'this list: every control route, with what it does',
      server: () => jsonResponse(200, { routes: listed }),
    },
    ...routes,
  ]
  const listed = all.map(({ method, path, description }) => ({ method, path: `${CONTROL_PREFIX}${path}`, description }))
  return all
}
