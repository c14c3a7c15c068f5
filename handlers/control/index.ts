import { CONTROL_PREFIX } from '../../core/control-guard.js'
import { z } from 'zod'
import { Claims } from '../../model/auth/claims.js'
import { mintToken } from '../../model/auth/tokens.js'
import { MAX_PERSONAS_PER_TEAM } from '../../factories/world.js'
import type { WorldOptions } from '../../factories/world.js'
import { answer, httpError, jsonResponse, methodNotAllowed } from '../../fastapi/http/responses.js'
import { FaultsConfig } from '../../core/instance/faults.js'
import type { MockInstance } from '../../core/instance/instance.js'
import type { Sessions } from '../../core/instance/sessions.js'
import type { Profile } from '../../model/profile.js'
import { StateError } from '../../model/state/index.js'
import { stateExport } from './state-export.js'
import { dropSession, listSessions } from './sessions.js'
import { advanceClock, clockState, setClock } from './clock.js'
import { createRecords, deleteRecord } from './records.js'
import { listScenarios, selectedScenarios, selectScenario } from './scenarios.js'
import { resetWithScenarios } from '../../core/scenarios/effects.js'
import type { ScenarioRegistry } from '../../core/scenarios/index.js'
import { toHar } from './har.js'
import { clearContract, contractExport } from './contract.js'
import { invalidBody, readJsonBody } from './body.js'
import { deleteOverrides, overridesState, putOverride } from './overrides.js'
import {
  deleteSnapshot,
  exportSnapshot,
  importSnapshot,
  listSnapshots,
  restoreSnapshot,
  takeSnapshot,
} from './snapshots.js'

const ResetBody = z
  .object({ seed: z.int().optional(), personas: z.int().min(0).max(MAX_PERSONAS_PER_TEAM).optional() })
  .strict()
const TokenBody = Claims.extend({ exp: z.number().nullable().optional() }).loose()
const JournalQuery = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  status: z.coerce.number().int().optional(),
  limit: z.coerce.number().int().min(1).optional(),
})

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
}

/** An answer on the world of the request's session. */
type WorldAnswer = (
  request: Request,
  url: URL,
  instance: MockInstance,
  params: Record<string, string>,
) => Promise<Response> | Response
/** An answer about the server itself, which no session's world is created or touched for; `params` from the path. */
type ServerAnswer = (request: Request, url: URL, params: Record<string, string>) => Promise<Response> | Response

/**
 * One control route: what `GET /__mock/` lists, and how it answers. `path` is under
 * {@link CONTROL_PREFIX}; a `{name}` segment matches one path segment. A `GET` route answers
 * `HEAD` too.
 */
export type ControlRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  /** One line, for `GET /__mock/`. */
  description: string
} & ({ answer: WorldAnswer } | { server: ServerAnswer })

/**
 * The control API: health, fixtures, reset, tokens, faults, the request journal and the
 * whole state, on the request's instance (so each session controls only its own world);
 * the list of routes and of sessions, about the server.
 * @returns the answer to a request under {@link CONTROL_PREFIX}
 */
export function createControl(settings: ControlSettings) {
  const routes: ControlRoute[] = [
    {
      method: 'GET',
      path: '/',
      description: 'this list: every control route, with what it does',
      server: () => jsonResponse(200, { routes: routeList(routes) }),
    },
    {
      method: 'GET',
      path: '/health',
      description: '{"status":"ok"}',
      answer: () => jsonResponse(200, { status: 'ok' }),
    },
    {
      method: 'GET',
      path: '/fixtures',
      description: 'the seed, ids of the seeded teams, dimensions and policies, and a token per role',
      answer: (_, __, instance) => jsonResponse(200, instance.fixtures),
    },
    {
      method: 'POST',
      path: '/reset',
      description:
        'back to a freshly seeded world: {"seed", "personas"} where given, else the server\'s configured ones (and its --scenario); clears faults',
      answer: (request, _, instance) => reset(request, instance, settings.configuredWorld),
    },
    {
      method: 'POST',
      path: '/tokens',
      description: 'signs the posted claims (sub required): {"token"}',
      answer: (request, _, instance) => token(request, settings.jwtSecret, instance.clock.nowSeconds()),
    },
    {
      method: 'GET',
      path: '/faults',
      description: 'the injected latency, errors and dropped connections',
      answer: (_, __, instance) => jsonResponse(200, instance.faults.config),
    },
    {
      method: 'PUT',
      path: '/faults',
      description: 'sets latency, errors and dropped connections, globally or per operation',
      answer: setFaults,
    },
    {
      method: 'GET',
      path: '/overrides',
      description: 'the typed overrides of this world, by operation (a function set in code as {"function": name})',
      answer: (_, __, instance) => overridesState(instance),
    },
    {
      method: 'PUT',
      path: '/overrides/{operation}',
      description:
        'answers the operation with {"status", "body", "headers"} or {"error": "not_found", ...} after auth and validation, as FastAPI would',
      answer: (request, url, instance) => putOverride(request, instance, lastSegment(url)),
    },
    {
      method: 'DELETE',
      path: '/overrides',
      description: 'drops every override of this world: 204',
      answer: (_, __, instance) => deleteOverrides(instance),
    },
    {
      method: 'DELETE',
      path: '/overrides/{operation}',
      description: "drops the operation's override: 204; 404 for an unknown operation",
      answer: (_, url, instance) => deleteOverrides(instance, lastSegment(url)),
    },
    {
      method: 'GET',
      path: '/requests',
      description: 'the journal of recent API requests, oldest first; ?method=&path=&status=&limit=',
      answer: journal,
    },
    {
      method: 'GET',
      path: '/requests.har',
      description: 'the journal as a HAR 1.2 file (the same filters)',
      answer: harExport,
    },
    {
      method: 'DELETE',
      path: '/requests',
      description: 'empties the journal',
      answer: (_, __, instance) => (instance.journal.clear(), answer(null, 204, {})),
    },
    {
      method: 'GET',
      path: '/contract',
      description:
        'the distinct API interactions of this world so far, as a recorded contract (ids as references, tokens as roles); ?format=pact: a Pact v4 file',
      answer: (_, url, instance) => contractExport(url, instance, settings.profile),
    },
    {
      method: 'DELETE',
      path: '/contract',
      description: 'starts the recorded contract over',
      answer: (_, __, instance) => clearContract(instance),
    },
    {
      method: 'GET',
      path: '/state',
      description: 'the whole world as JSON',
      answer: stateExport(),
    },
    {
      method: 'PUT',
      path: '/state',
      description: 'replaces the whole world (validated: an invalid state answers 400)',
      answer: importState,
    },
    {
      method: 'GET',
      path: '/clock',
      description: 'the world\'s clock: {"now" (ISO 8601), "epoch_seconds", "frozen"}',
      answer: (_, __, instance) => clockState(instance.clock),
    },
    {
      method: 'PUT',
      path: '/clock',
      description: 'sets the clock: {"now": ISO 8601 or Unix seconds, "frozen": true|false}',
      answer: (request, _, instance) => setClock(request, instance.clock),
    },
    {
      method: 'POST',
      path: '/clock/advance',
      description: 'moves the clock forward, frozen or not: {"seconds": n}',
      answer: (request, _, instance) => advanceClock(request, instance.clock),
    },
    {
      method: 'POST',
      path: '/records/{collection}',
      description: 'stores a record (an object of fields) or several (an array), defaults filled in, all or none: 201',
      answer: (request, url, instance) => createRecords(request, url, instance, settings.profile),
    },
    {
      method: 'DELETE',
      path: '/records/{collection}/{id}',
      description: 'deletes a record and the records that belong to it: 204, or 404',
      answer: deleteRecord,
    },
    {
      method: 'GET',
      path: '/scenarios',
      description: 'every scenario known (built-in and --config), with its description',
      server: () => listScenarios(settings.scenarios),
    },
    {
      method: 'GET',
      path: '/scenario',
      description: 'the scenarios selected for this world: {"scenarios": [names]}',
      answer: (_, __, instance) => selectedScenarios(instance),
    },
    {
      method: 'PUT',
      path: '/scenario',
      description:
        'a freshly seeded world with these scenarios applied in order: {"scenarios": ["empty-team", "slow"]}',
      answer: (request, _, instance) => selectScenario(request, instance, settings.scenarios, settings.configuredWorld),
    },
    {
      method: 'GET',
      path: '/snapshots',
      description: 'the snapshots kept: name, taken_at, seed, personas_per_team',
      answer: listSnapshots,
    },
    {
      method: 'POST',
      path: '/snapshots',
      description: 'keeps the world as it is now: {"name"} (201); a session can start from it (X-Mock-Session-From)',
      answer: takeSnapshot,
    },
    {
      method: 'POST',
      path: '/snapshots/{name}/restore',
      description: 'the world becomes the snapshot again (faults and the clock stay); answers the fixtures',
      answer: restoreSnapshot,
    },
    {
      method: 'GET',
      path: '/snapshots/{name}',
      description: 'the snapshot as a state file',
      answer: exportSnapshot,
    },
    {
      method: 'PUT',
      path: '/snapshots/{name}',
      description: 'keeps a state file as a snapshot of this name (validated as PUT /__mock/state)',
      answer: importSnapshot,
    },
    {
      method: 'DELETE',
      path: '/snapshots/{name}',
      description: 'forgets a snapshot: 204, or 404',
      answer: deleteSnapshot,
    },
    {
      method: 'GET',
      path: '/sessions',
      description: 'the X-Mock-Session worlds kept: key, scenario, last used, writes',
      server: () => listSessions(settings.sessions),
    },
    {
      method: 'DELETE',
      path: '/sessions/{key}',
      description: "drops a session's world; the key starts over from the seeded world when used again",
      server: (_, __, { key }) => dropSession(settings.sessions, key ?? ''),
    },
  ]
  return async (request: Request, url: URL): Promise<Response> => {
    if (!settings.control) return httpError(404, 'The control API is switched off (--no-control)')
    // HEAD is GET without the body (the core drops it), as Starlette answers its own routes.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const found = findRoute(routes, method, url.pathname.slice(CONTROL_PREFIX.length))
    if (found === undefined) return httpError(404, 'Not Found')
    if ('allow' in found) return methodNotAllowed(found.allow)
    const { route, params } = found
    if ('server' in route) return route.server(request, url, params)
    return route.answer(request, url, await settings.instanceFor(request), params)
  }
}

/** The routes as `GET /__mock/` lists them: method, whole path, description. */
const routeList = (routes: readonly ControlRoute[]) =>
  routes.map(({ method, path, description }) => ({ method, path: `${CONTROL_PREFIX}${path}`, description }))

/**
 * The route for a method and a path under the prefix, with its path parameters; the methods
 * of the path when no route of it takes this one (Starlette's 405, `HEAD` beside `GET`);
 * undefined for a path no route has.
 */
function findRoute(routes: readonly ControlRoute[], method: string, path: string) {
  const matching = routes.flatMap((route) => {
    const params = matchPath(route.path, path)
    return params ? [{ route, params }] : []
  })
  const found = matching.find(({ route }) => route.method === method)
  if (found || matching.length === 0) return found
  return { allow: matching.flatMap(({ route }) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])) }
}

/** The last segment of a control path, percent-decoded (a `{name}` the route matched). */
function lastSegment(url: URL): string {
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const wanted = pattern.split('/')
  const given = path.split('/')
  if (wanted.length !== given.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of wanted.entries()) {
    const value = given[index] ?? ''
    const name = /^\{(\w+)\}$/.exec(part)?.[1]
    if (name && value !== '') params[name] = value
    else if (part !== value) return undefined
  }
  return params
}

async function reset(request: Request, instance: MockInstance, configured: Required<WorldOptions>) {
  const body = ResetBody.safeParse((await readJsonBody(request)) ?? {})
  if (!body.success) throw invalidBody(body.error)
  await resetWithScenarios(instance, {
    seed: body.data.seed ?? configured.seed,
    personasPerTeam: body.data.personas ?? configured.personasPerTeam,
  })
  return jsonResponse(200, instance.fixtures)
}

async function token(request: Request, secret: string, now: number) {
  const claims = TokenBody.safeParse(await readJsonBody(request))
  if (!claims.success) throw invalidBody(claims.error)
  return jsonResponse(200, { token: await mintToken(claims.data, secret, now) })
}

async function setFaults(request: Request, _url: URL, instance: MockInstance) {
  const config = FaultsConfig.safeParse(await readJsonBody(request))
  if (!config.success) throw invalidBody(config.error)
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}

function journal(_request: Request, url: URL, instance: MockInstance) {
  return jsonResponse(200, { requests: instance.journal.list(journalFilter(url)) })
}

function harExport(_request: Request, url: URL, instance: MockInstance) {
  return jsonResponse(200, toHar(instance.journal.list(journalFilter(url))), {
    'content-disposition': 'attachment; filename="requests.har"',
  })
}

/** The journal filters of a `/__mock/requests` query (`method`, `path`, `status`, `limit`); a bad one throws a 400. */
export function journalFilter(url: URL) {
  const query = JournalQuery.safeParse(Object.fromEntries(url.searchParams))
  if (!query.success) throw invalidBody(query.error)
  return query.data
}

async function importState(request: Request, _url: URL, instance: MockInstance) {
  try {
    await instance.importState(await request.text())
  } catch (error) {
    if (error instanceof StateError) throw httpError(400, `Invalid state: ${error.message}`)
    throw error
  }
  return jsonResponse(200, instance.fixtures)
}
