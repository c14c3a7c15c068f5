import { sentMethodOf } from '../core/sent-method.js'
import { API_ROUTES } from '../model/api/routes.js'
import { Reply, toResponse, type Outcome } from '../fastapi/http/reply.js'
import { answer as plainAnswer, internalServerError, notFound } from '../fastapi/http/responses.js'
import { createRouter, type Route } from '../fastapi/http/router.js'
import { createControl } from './control/index.js'
import { OPERATIONS } from './operations/index.js'
import { servedApi } from './documented/index.js'
import { pathFromUrlPath } from '../fastapi/python/url-quote.js'
import { createApi } from '../core/api.js'
import { withBodyLimit } from '../core/body-limit.js'
import { settle } from '../core/boundary.js'
import { CONTROL_PREFIX, trustedOrigin, withControlGuard, withForeignChangesRefused } from '../core/control-guard.js'
import { withCors } from '../core/cors.js'
import type { Answer, Exchange } from '../core/exchange.js'
import { createMetaAnswers, META_ROUTES } from '../core/meta.js'
import { resolveSettings, type CoreOptions, type CoreSettings } from '../core/settings.js'

/** The whole mock as one web-standard function, in the manner of hono's `app.fetch`. */
export interface Core {
  /** Answers one request. Never throws: a bug of the mock answers 500, as Starlette does. */
  fetch(request: Request): Promise<Response>
  /** Whether the mock answers this request at all (its origin, and its path under `claim`). */
  claims(request: Request): boolean
  readonly settings: CoreSettings
}

/**
 * The mock's core: the API, the control API, `/openapi.json` and `/docs`, FastAPI's routing
 * fallbacks, sessions, faults and the journal, as one `(request) => Promise<Response>`.
 * Every host (msw's handlers, the Express middleware) hands requests to it.
 * @example const core = createCore({ instance: await MockInstance.create({ seed: 1 }), claim: 'all' })
 * const response = await core.fetch(new Request('http://localhost/v1/personas/'))
 */
export function createCore(options: CoreOptions): Core {
  return coreWith(resolveSettings(options))
}

/** The core for settings resolved already, taken as they are (the standalone server resolves its own). */
export function coreWith(settings: CoreSettings): Core {
  let answer: Answer = withBodyLimit(dispatcher(settings), settings.maxBodyBytes)
  if (settings.controlGuard) answer = withForeignChangesRefused(answer, settings.controlGuard)
  if (settings.control && settings.controlGuard) answer = withControlGuard(answer, settings.controlGuard)
  if (settings.cors) answer = withCorsOf(answer, settings)
  const claims = claimTest(settings)
  return {
    settings,
    claims: (request) => claims(exchangeOf(request, settings).url),
    fetch: async (request) => {
      const exchange = exchangeOf(request, settings)
      const report = (error: unknown) => settings.logError(`${exchange.method} ${exchange.url.pathname} failed:`, error)
      const outcome = await settle(() => answer(exchange), report)
      try {
        return toResponse(outcome, wantsBytesOnly(request))
      } catch (error) {
        // A header Fetch refuses (an override's): Starlette's 500, as for any other bug.
        report(error)
        return internalServerError()
      }
    },
  }
}

/** A request as the core works on it: its URL parsed, a session named in its path taken off. */
function exchangeOf(request: Request, { sessionTransport }: CoreSettings): Exchange {
  const requested = requestUrl(request)
  const method = sentMethodOf(request)
  const prefix = sessionTransport.pathPrefix?.(requested.pathname) ?? ''
  if (prefix === '') return { request, method, url: requested, requested, prefix }
  const url = new URL(requested)
  url.pathname = requested.pathname.slice(prefix.length) || '/'
  return { request, method, url, requested, prefix }
}

/**
 * CORS for the API, and only to trusted pages where a guard says which: the control API grants none to another
 * page, and the API no preflight (so another page sends it no token), answering trusted pages as FastAPI's
 * `CORSMiddleware(allow_origins=["*"])` does.
 */
function withCorsOf(next: Answer, { cors, controlGuard, sessionHeaders }: CoreSettings): Answer {
  if (!cors) return next
  const api = withCors(next, cors, sessionHeaders)
  if (!controlGuard) return api
  const control = withCors(
    next,
    { ...cors, allowOrigins: (origin) => trustedOrigin(origin, controlGuard) },
    sessionHeaders,
  )
  return (exchange) => {
    const origin = exchange.request.headers.get('origin')
    const trusted = origin === null || trustedOrigin(origin, controlGuard)
    return (trusted && !exchange.url.pathname.startsWith(`${CONTROL_PREFIX}/`) ? api : control)(exchange)
  }
}

/**
 * The control API; then the routes of FastAPI's app, as its router sees them: its own
 * (`/openapi.json`, `/docs`, where the mock owns the origin) before the API's, with the
 * router's 307/405/404 for anything else.
 */
function dispatcher(settings: CoreSettings): Answer {
  const served = settings.openapi && servedApi(settings.openapi, API_ROUTES)
  const control = createControl(settings, served || undefined)
  const meta = createMetaAnswers(
    settings.profile,
    served ? { document: served.document, operations: served.routes } : undefined,
  )
  const api = createApi(settings, served ? { ...OPERATIONS, ...served.operations } : OPERATIONS)
  const apiRoutes = [...API_ROUTES, ...(served ? served.routes : [])]
  const route = createRouter<Route>(settings.claim === 'all' ? [...META_ROUTES, ...apiRoutes] : apiRoutes)
  return async (exchange: Exchange) => {
    const { request, url } = exchange
    if (url.pathname.startsWith(`${CONTROL_PREFIX}/`)) return withoutBodyForHead(request, await control(request, url))
    const result = route(request.method, pathFromUrlPath(url.pathname))
    const own =
      result.kind === 'match' && META_ROUTES.includes(result.route) ? (meta(result.route) ?? notFound()) : undefined
    if (own) return withoutBodyForHead(request, own)
    return request.method === 'HEAD' ? withoutBodyForHead(request, await api(exchange, result)) : api(exchange, result)
  }
}

/** uvicorn sends no body for HEAD, but keeps every header of the answer (content-length included). */
function withoutBodyForHead(request: Request, outcome: Outcome): Outcome {
  if (request.method !== 'HEAD') return outcome
  if (outcome instanceof Reply) return outcome.bytes ? outcome.withoutBody() : outcome
  return outcome.body ? plainAnswer(null, outcome.status, outcome.headers) : outcome
}

function claimTest({ base, claim }: CoreSettings) {
  return (url: URL) =>
    (base === '*' || url.origin === base) &&
    (claim === 'all' || /^\/v1(\/|$)/i.test(url.pathname) || url.pathname.startsWith(`${CONTROL_PREFIX}/`))
}

const PARSED_URL = Symbol('agent-console-mock parsed URL')

/**
 * The request's URL, parsed once: msw asks `claims` and then `fetch` about the same `Request`, and
 * undici serialises its URL again on every read of `request.url`. Kept on the request, as msw
 * keeps its clone of it, so it goes with the request.
 */
function requestUrl(request: Request): URL {
  const marked = request as MarkedRequest
  return (marked[PARSED_URL] ??= new URL(request.url))
}

const BYTES_ONLY = Symbol('agent-console-mock bytes only')

/**
 * Marks a request whose host writes the answer's bytes (`writtenBody`) to its socket itself:
 * its answer needs no body stream, which in Node 20 costs more than the page it carries.
 */
export const answerBytesOnly = (request: Request): void => void ((request as MarkedRequest)[BYTES_ONLY] = true)
const wantsBytesOnly = (request: Request): boolean => (request as MarkedRequest)[BYTES_ONLY] === true
type MarkedRequest = Request & { [BYTES_ONLY]?: true; [PARSED_URL]?: URL }

export type { CoreOptions } from '../core/settings.js'
