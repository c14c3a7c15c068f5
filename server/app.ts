import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import express, { type Express } from 'express'
import type { RequestHandler } from 'msw'
import { createCore, type Core } from '../handlers/app.js'
import { internalServerError, notFound } from '../fastapi/http/responses.js'
import { MockInstance, type InstanceOptions } from '../core/instance/instance.js'
import { MemoryBudget } from '../core/instance/memory-budget.js'
import { Snapshots } from '../core/instance/snapshots.js'
import { DEFAULT_SESSION_LIMIT, Sessions } from '../core/instance/sessions.js'
import type { Profile, ProfileOptions } from '../model/profile.js'
import { scenarioRegistry } from '../core/instance/handle.js'
import { selectScenarios } from '../core/scenarios/effects.js'
import type { Scenario } from '../core/scenarios/index.js'
import { handlersOf } from '../handlers/index.js'
import { serveDocsAssets } from './docs.js'
import { defaultMemoryBudget } from './heap.js'
import { requestLogger, type Logger } from './logger.js'
import { type BeforeSend, mockMiddleware, send } from './middleware.js'

export interface AppOptions extends InstanceOptions {
  profile?: ProfileOptions
  /** Milliseconds added before every API answer. */
  delayMs?: number
  maxBodyBytes?: number
  /** Serve the control API under /__mock/. @default true */
  control?: boolean
  /** Session worlds kept at most. @default 100 */
  sessionLimit?: number
  /** Bytes the worlds may hold (new ones beyond: least recently used sessions go, then 503). @default 70% of the heap limit */
  maxMemoryBytes?: number
  /** Origins of pages trusted with the control API besides loopback ones (`--allow-origin`). */
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
}

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
  const startScenarios = scenarioRegistry(options).resolve(options.scenario)
  const configured = { seed: options.seed, personasPerTeam: options.personasPerTeam }
  const budget = new MemoryBudget(options.maxMemoryBytes ?? defaultMemoryBudget())
  // One set of snapshots for every session: a snapshot taken in one can start another.
  const snapshots = new Snapshots()
  /** A seeded instance with the start scenarios applied (for the default world, and each new session). */
  const seeded = async (worldOptions: InstanceOptions) => {
    const instance = await MockInstance.create({ ...options, ...worldOptions, budget, snapshots })
    instance.scenarios.atStart = startScenarios
    if (startScenarios.length > 0) await selectScenarios(instance, startScenarios, instance.worldOptions)
    return instance
  }
  const primary = await seeded(configured)
  const spawn = () => seeded(primary.worldOptions)
  const sessions = new Sessions(primary, spawn, options.sessionLimit ?? DEFAULT_SESSION_LIMIT, budget)
  const logger = options.logger ?? console
  const core = createCore({
    ...options,
    instance: sessions,
    claim: 'all',
    cors: options.cors ?? true,
    controlGuard: {
      allowOrigins: options.allowOrigins ?? [],
      allowedHosts: options.allowedHosts ?? [],
      token: options.controlToken,
    },
    logError: (message, error) => logger.error(message, error),
  })
  const mockHandlers = handlersOf(core)
  let overrides: RequestHandler[] = []
  const beforeSend: MockApp['beforeSend'] = []
  const afterResponse: Array<() => void> = []
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  const logRequests = requestLogger(logger)
  if (logRequests) app.use((req, res, next) => (logRequests(req, res), next()))
  app.get(WORKER_SCRIPT_PATH, (_req, res) => res.type('text/javascript').sendFile(workerScriptPath()))
  serveDocsAssets(app)
  app.use(
    mockMiddleware({
      handlers: () => (overrides.length ? [...overrides, ...mockHandlers] : mockHandlers),
      beforeSend: (request) => (beforeSend.length > 1 ? inTurn(beforeSend, request) : beforeSend[0]?.(request)),
      afterResponse: () => {
        for (const hook of afterResponse) hook()
      },
      onError: (error, req) => logger.error(`${req.method} ${req.url} failed:`, error),
    }),
  )
  app.use(answerUnclaimed)
  app.use((error: unknown, req: IncomingMessage, res: ServerResponse, _next: () => void) => {
    logger.error(`${req.method} ${req.url} failed:`, error)
    void send(res, internalServerError(), req.method)
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
