import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import express, { type Express } from 'express'
import type { RequestHandler } from 'msw'
import { coreWith, type Core } from '../handlers/app.js'
import { internalServerError, notFound } from '../fastapi/http/responses.js'
import { MockInstance } from '../core/instance/instance.js'
import { keptJsonBeside, MemoryBudget } from '../core/instance/memory-budget.js'
import { Snapshots } from '../core/instance/snapshots.js'
import { Sessions } from '../core/instance/sessions.js'
import { selectScenarios } from '../core/scenarios/effects.js'
import { settingsFor } from '../core/settings.js'
import type { WorldOptions } from '../factories/world.js'
import type { Profile } from '../model/profile.js'
import { handlersOf } from '../handlers/index.js'
import { serveDocsAssets } from './docs.js'
import { forwardingMiddleware } from './forwarding.js'
import { requestLogger, type Logger } from './logger.js'
import { type BeforeSend, type MiddlewareOptions, mockMiddleware, send, sendInstead } from './middleware.js'
import type { AppOptions } from './options.js'
import { resolveAppSettings, type AppSettings } from './settings.js'

export type { AppOptions } from './options.js'

export interface MockApp {
  /** The whole server as an Express app, to listen with or to mount in your own. */
  app: Express
  core: Core
  sessions: Sessions
  profile: Profile
  /** Prepends msw handlers, answered before the mock's (as msw's `server.use`). */
  use(...handlers: RequestHandler[]): void
  /** Drops the handlers added with `use`. */
  resetHandlers(): void
  /**
   * Called when a request for the handlers arrives; what each returns gets the answer in turn
   * before it is sent, and may replace it. Where persistence makes an answer wait until its changes
   * are on disk (only the handlers change state).
   */
  beforeSend: Array<(request: Request) => BeforeSend | undefined>
  /** Called after every answer of the handlers has been written. */
  afterResponse: Array<() => void>
}

/**
 * The standalone server as an Express app: msw's worker script and the docs' assets, then
 * every other request answered by the same msw handlers as the browser and Node tests
 * (through {@link mockMiddleware}), on the default world or the world of the request's session.
 */
export async function createMockApp(options: AppOptions = {}): Promise<MockApp> {
  return createMockAppWith(resolveAppSettings(options))
}

/** The app for settings resolved already, taken as they are (`startServer` resolves a server's). */
export async function createMockAppWith(settings: AppSettings): Promise<MockApp> {
  const sessions = await seededSessions(settings)
  const core = coreWith(settingsFor(settings.core, sessions, settings.world))
  const mockHandlers = handlersOf(core)
  let overrides: RequestHandler[] = []
  const beforeSend: MockApp['beforeSend'] = []
  const afterResponse: Array<() => void> = []
  const forwarding = settings.forward.length
    ? forwardingMiddleware(settings.forward, {
        timeouts: settings.forwardTimeouts,
        maxBodyBytes: settings.core.maxBodyBytes,
        transport: settings.core.sessionTransport,
        instanceFor: core.settings.instanceFor,
        primary: sessions.primary,
      })
    : undefined
  const app = expressApp(settings.logger, forwarding, {
    handlers: () => (overrides.length ? [...overrides, ...mockHandlers] : mockHandlers),
    beforeSend: (request) => (beforeSend.length > 1 ? inTurn(beforeSend, request) : beforeSend[0]?.(request)),
    afterResponse: () => {
      for (const hook of afterResponse) hook()
    },
    onError: (error, req) => settings.logger.error(`${req.method} ${req.url} failed:`, error),
  })
  return {
    app,
    core,
    sessions,
    profile: core.settings.profile,
    use: (...handlers) => void (overrides = [...handlers, ...overrides]),
    resetHandlers: () => void (overrides = []),
    beforeSend,
    afterResponse,
  }
}

/**
 * The default world and the sessions to come, each seeded with the start scenarios applied,
 * within one memory budget and sharing one set of snapshots (one taken in a session can start another).
 */
async function seededSessions(settings: AppSettings): Promise<Sessions> {
  const budget = new MemoryBudget(settings.maxMemoryBytes)
  const snapshots = new Snapshots()
  const keptJson = keptJsonBeside(budget)
  const seeded = async (world: Required<WorldOptions>) => {
    const instance = await MockInstance.create({
      ...world,
      jwtSecret: settings.core.jwtSecret,
      journalSize: settings.journalSize,
      budget,
      snapshots,
      keptJson,
    })
    instance.scenarios.atStart = settings.startScenarios
    if (settings.startScenarios.length > 0) await selectScenarios(instance, settings.startScenarios, world)
    return instance
  }
  const primary = await seeded(settings.world)
  // A new session starts from the default world's seed and size as they are now (after a reset, the reset's).
  return new Sessions(primary, () => seeded(primary.worldOptions), settings.sessionLimit, budget)
}

/**
 * msw's worker script and the docs' assets, then the forwarded prefixes (ahead of the mock: asked for by name),
 * then the mock's middleware, then FastAPI's 404 and 500.
 */
function expressApp(
  logger: Logger,
  forwarding: ReturnType<typeof forwardingMiddleware> | undefined,
  middleware: MiddlewareOptions,
): Express {
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  const logRequests = requestLogger(logger)
  if (logRequests) app.use((req, res, next) => (logRequests(req, res), next()))
  // Express routes a lower-case `get` as GET; the mock's routes answer it as Starlette does (404 here).
  app.get(WORKER_SCRIPT_PATH, (req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? res.type('text/javascript').sendFile(workerScriptPath()) : next(),
  )
  serveDocsAssets(app)
  if (forwarding) app.use((req, res, next) => void forwarding(req, res, next))
  app.use(mockMiddleware(middleware))
  app.use(answerUnclaimed)
  app.use((error: unknown, req: IncomingMessage, res: ServerResponse, _next: () => void) => {
    logger.error(`${req.method} ${req.url} failed:`, error)
    if (res.headersSent) return void res.destroy()
    // Starlette's 500 alone: nothing of the answer that failed goes with it.
    void sendInstead(res, internalServerError(), req.method)
  })
  return app
}

function inTurn(hooks: MockApp['beforeSend'], request: Request): BeforeSend {
  const finishers = hooks.map((hook) => hook(request))
  return async (response) => {
    for (const finish of finishers) if (finish) response = await finish(response)
    return response
  }
}

/** What every handler passed through: FastAPI's 404, as for any path it does not know. */
const answerUnclaimed = (req: IncomingMessage, res: ServerResponse) => void send(res, notFound(), req.method)

const WORKER_SCRIPT_PATH = '/mockServiceWorker.js'

/** msw's own worker script, so the served copy always matches the installed msw. */
const workerScriptPath = () => createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
