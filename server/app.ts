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
import { cors } from './cors.js'
import { serveDocs } from './docs.js'
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
  app: Express
  sessions: Sessions
  profile: Profile
  /** Called after every answer: where persistence hooks in. */
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
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.use(requestLogger(logger))
  app.use((_req, res, next) => {
    res.on('finish', () => afterResponse.forEach((hook) => hook()))
    next()
  })
  app.use(cors())
  app.get('/mockServiceWorker.js', (_req, res) => res.type('text/javascript').sendFile(workerScriptPath()))
  const docsHandler = serveDocs(app)
  const handlers = [
    docsHandler,
    ...(options.extraHandlers?.({ profile }) ?? []),
    ...createHandlers({ instance: sessions, profile, jwtSecret: options.jwtSecret, claim: 'all', maxBodyBytes, delayMs: options.delayMs, control: options.control }),
  ]
  app.use(mswAdapter({ handlers: () => handlers, maxBodyBytes, onError: (error, req) => logger.error(`${req.method} ${req.originalUrl} failed:`, error) }))
  app.use((req: Request, res: Response) => void send(res, httpError(404, 'Not Found'), req.method))
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error(`${req.method} ${req.originalUrl} failed:`, error)
    void send(res, httpError(500, 'Internal Server Error'), req.method)
  })
  return { app, sessions, profile, afterResponse }
}

/** msw's own worker script, so the served copy always matches the installed msw. */
const workerScriptPath = () => createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
