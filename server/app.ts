import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { RequestHandler } from 'msw'
import { createHandlers } from '../handlers/index.js'
import { httpError } from '../handlers/fastapi/responses.js'
import { DEFAULT_MAX_BODY_BYTES } from '../handlers/fastapi/body.js'
import { MockInstance, type InstanceOptions } from '../mock/instance.js'
import { DEFAULT_SESSION_LIMIT, Sessions } from '../mock/sessions.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import { mswAdapter, send } from './adapter.js'
import { applyCors, cors } from './cors.js'
import { DOCS_ASSETS_PATH, docsHandler, serveDocsAssets } from './docs.js'
import { requestLogger, type Logger } from './logger.js'

export interface AppOptions extends InstanceOptions {
  profile?: ProfileOptions
  /** Milliseconds added before every API answer. */
  delayMs?: number
  maxBodyBytes?: number
  /** Serve the control API under /__mock/. @default true */
  control?: boolean
  /** Session worlds kept at most. @default 100 */
  sessionLimit?: number
  logger?: Logger
  /** More msw handlers, answered before the API's (docs, overrides). */
  extraHandlers?: (settings: { profile: Profile }) => RequestHandler[]
}

export interface MockApp {
  /** The whole server as an Express app, to mount or listen with. */
  app: Express
  /**
   * Node's request listener the standalone server uses: the same answers as `app`, but API
   * traffic goes from Node's HTTP server straight to the msw handlers, skipping Express's
   * per-request work (a third of the throughput, and garbage that outlives young-generation
   * GCs); what only Express serves (msw's worker script, the docs' assets) goes to `app`.
   */
  listener: RequestListener
  sessions: Sessions
  profile: Profile
  /** Called after every answer of the handlers (only they change state): where persistence hooks in. */
  afterResponse: Array<() => void>
}

/**
 * The standalone server as an Express app: CORS, the msw worker script, then every
 * request answered by the same msw handlers as the browser and Node tests, on the
 * default world or the world of the request's session.
 */
export async function createMockApp(options: AppOptions = {}): Promise<MockApp> {
  const profile = resolveProfile(options.profile)
  const spawn = (primary: MockInstance) => MockInstance.create({ ...options, ...primary.worldOptions })
  const sessions = new Sessions(await MockInstance.create(options), spawn, options.sessionLimit ?? DEFAULT_SESSION_LIMIT)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const logger = options.logger ?? console
  const afterResponse: Array<() => void> = []
  const logRequests = requestLogger(logger)
  const handlers = [
    docsHandler(),
    ...(options.extraHandlers?.({ profile }) ?? []),
    ...createHandlers({ instance: sessions, profile, jwtSecret: options.jwtSecret, claim: 'all', maxBodyBytes, delayMs: options.delayMs, control: options.control }),
  ]
  const answer = mswAdapter({ handlers: () => handlers, maxBodyBytes, afterResponse: () => afterResponse.forEach((hook) => hook()), onError: (error, req) => logger.error(`${req.method} ${req.url} failed:`, error) })
  const notFound = (req: IncomingMessage, res: ServerResponse) => void send(res, httpError(404, 'Not Found'), req.method)

  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  if (logRequests) app.use((req, res, next) => (logRequests(req, res), next()))
  app.use(cors())
  app.get(WORKER_SCRIPT_PATH, (_req, res) => res.type('text/javascript').sendFile(workerScriptPath()))
  serveDocsAssets(app)
  app.use(answer)
  app.use(notFound)
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error(`${req.method} ${req.originalUrl} failed:`, error)
    void send(res, httpError(500, 'Internal Server Error'), req.method)
  })

  const listener: RequestListener = (req, res) => {
    if (servedByExpressOnly(req.url ?? '/')) return void app(req, res)
    logRequests?.(req, res)
    if (applyCors(req, res)) return
    void answer(req, res, () => notFound(req, res))
  }
  return { app, listener, sessions, profile, afterResponse }
}

const WORKER_SCRIPT_PATH = '/mockServiceWorker.js'

/**
 * Express matches paths without regard to case or a trailing slash: so does this. When in
 * doubt (an absolute-form target), Express: it serves everything, the API included.
 */
const servedByExpressOnly = (url: string) => {
  const path = url.toLowerCase()
  return !path.startsWith('/') || path.startsWith(WORKER_SCRIPT_PATH.toLowerCase()) || path.startsWith(DOCS_ASSETS_PATH)
}

/** msw's own worker script, so the served copy always matches the installed msw. */
const workerScriptPath = () => createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
