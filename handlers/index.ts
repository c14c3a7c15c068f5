import { delay, HttpResponse, type HttpHandler } from 'msw'
import { createTokenVerifier, DEVELOPMENT_JWT_SECRET } from '../auth/tokens.js'
import { MockInstance } from '../mock/instance.js'
import { sessionKey, SESSION_HEADER, type Sessions } from '../mock/sessions.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import { buildOpenApiDocument } from '../openapi/document.js'
import { createControlHandlers } from './control.js'
import { ANY_METHOD, atPath, onPath, urlOf } from './match.js'
import { DEFAULT_MAX_BODY_BYTES } from './fastapi/body.js'
import { QueryParams } from './fastapi/query-string.js'
import { httpError, jsonResponse, methodNotAllowed, notFound, temporaryRedirect, withoutBody, writtenBody } from './fastapi/responses.js'
import { createRouter, type RouteResult } from './fastapi/router.js'
import { statusPhrase } from './fastapi/status-phrases.js'
import { pathFromUrlPath, redirectLocation } from './fastapi/url-quote.js'
import type { OperationContext } from './operation.js'
import { API_ROUTES, type ApiRoute } from './routes.js'

export interface HandlerOptions {
  /** The mock backend: one instance, or sessions (an instance per `X-Mock-Session`). */
  instance: MockInstance | Sessions
  /** Profile settings (`decisions.md`); the defaults where not given. */
  profile?: Profile | ProfileOptions
  /** The HS256 secret tokens are checked with. @default DEVELOPMENT_JWT_SECRET */
  jwtSecret?: string
  /** The origin the API is served on, e.g. `http://localhost:4010`; `*` for any origin. @default '*' */
  baseUrl?: string
  /**
   * Which unmatched requests get FastAPI's 404/405/307: `api`, paths under `/v1` (so a
   * browser app's own assets pass through); `all`, every path of the base URL.
   * @default 'api'
   */
  claim?: 'api' | 'all'
  /** Request bodies larger than this many bytes answer 413. @default 1 MiB */
  maxBodyBytes?: number
  /** Milliseconds added before every API answer (faults may add more). @default 0 */
  delayMs?: number
  /** Serve the control API under `/__mock/`. @default true */
  control?: boolean
}

/**
 * The MSW request handlers of the whole mock: one per API operation, the control API under
 * `/__mock/`, then a fallback that answers as FastAPI's router does (307 to the slash twin,
 * 405 with `allow`, 404). The same array serves the browser worker, `setupServer` and the
 * Express host.
 * @example setupServer(...createHandlers({ instance: await MockInstance.create({ seed: 1 }) }))
 */
export function createHandlers(options: HandlerOptions): HttpHandler[] {
  const settings = resolveSettings(options)
  const dispatch = createDispatcher(settings)
  const operationHandlers = API_ROUTES.map((route) => {
    // A quick pre-filter on the raw path; the dispatcher routes exactly (and the fallback
    // catches what this misses, such as `/v1/person%61s/`).
    const looksLike = new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`)
    return onPath(route.method, settings.base, (pathname) => looksLike.test(pathname), (request) => dispatch(request, route))
  })
  return [
    // The API first: msw tries handlers in order, and API calls are the traffic that matters.
    ...operationHandlers,
    ...createControlHandlers(settings),
    ...(settings.claim === 'all' ? [openApiHandler(settings)] : []),
    onPath(ANY_METHOD, settings.base, () => true, (request) => dispatch(request)),
  ]
}

/**
 * `GET /openapi.json`, as FastAPI serves it. Only where the mock owns the whole origin
 * (`claim: 'all'`): in a browser app the path may well be the app's own.
 */
function openApiHandler(settings: HandlerSettings) {
  let document: unknown
  return atPath('GET', settings.base, '/openapi.json', () => jsonResponse(200, (document ??= buildOpenApiDocument(settings.profile))))
}

export type HandlerSettings = ReturnType<typeof resolveSettings>

function resolveSettings(options: HandlerOptions) {
  const baseUrl = options.baseUrl ?? '*'
  const instance = options.instance
  return {
    base: baseUrl === '*' ? '*' : new URL(baseUrl).origin,
    claim: options.claim ?? 'api',
    profile: resolveProfile(options.profile as ProfileOptions),
    jwtSecret: options.jwtSecret ?? DEVELOPMENT_JWT_SECRET,
    verifyToken: createTokenVerifier(options.jwtSecret ?? DEVELOPMENT_JWT_SECRET),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    delayMs: options.delayMs ?? 0,
    control: options.control ?? true,
    /** The instance a request works on; a malformed session key answers 400. */
    instanceFor: async (request: Request): Promise<MockInstance> => {
      if (instance instanceof MockInstance) return instance
      const key = sessionKey(request)
      if ('invalid' in key) throw httpError(400, `Invalid ${SESSION_HEADER}: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -`)
      return instance.instance(key.key)
    },
  }
}

const route = createRouter(API_ROUTES)

/**
 * Routes one request as Starlette would, then answers it on the request's instance, with
 * its faults, and writes it to the instance's journal. With `only`, answers solely when
 * that route is the match (msw's matching is case-insensitive and lax about slashes,
 * FastAPI's is not); otherwise it leaves the request to the next handler.
 */
function createDispatcher(settings: HandlerSettings) {
  const claims = claimTest(settings)
  return async (request: Request, only?: ApiRoute): Promise<Response | undefined> => {
    const url = urlOf(request)
    if (!claims(url)) return undefined
    const result = route(request.method, pathFromUrlPath(url.pathname))
    if (only && (result.kind !== 'match' || result.route !== only)) return undefined
    const started = performance.now()
    const instance = await settings.instanceFor(request).catch(answerThrown)
    if (instance instanceof Response) return instance
    const response = withoutBodyForHead(request, await answer(result, { request, url, instance, settings }))
    instance.journal.record({
      time: new Date().toISOString(),
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    })
    return response
  }
}

interface Exchange {
  request: Request
  url: URL
  instance: MockInstance
  settings: HandlerSettings
}

async function answer(result: RouteResult<ApiRoute>, { request, url, instance, settings }: Exchange): Promise<Response> {
  switch (result.kind) {
    case 'match': {
      const fault = instance.faults.decide(result.route.name)
      const wait = settings.delayMs + fault.latencyMs
      if (wait > 0) await delay(wait)
      if (fault.outcome === 'drop') return HttpResponse.error()
      if (fault.outcome !== 'answer') return httpError(fault.outcome.status, statusPhrase(fault.outcome.status))
      return runOperation(result.route, {
        request,
        params: result.params,
        query: new QueryParams(url.search.slice(1)),
        world: instance.world,
        profile: settings.profile,
        verifyToken: settings.verifyToken,
        maxBodyBytes: settings.maxBodyBytes,
      })
    }
    case 'redirect':
      return temporaryRedirect(redirectLocation(url, result.path))
    case 'method_not_allowed':
      return methodNotAllowed(result.allow)
    case 'not_found':
      return notFound()
  }
}

/**
 * Runs an operation; an answer it throws is its answer. Anything else thrown is a bug of
 * the mock: it is logged and answered as Starlette answers an unhandled exception.
 */
async function runOperation(route: ApiRoute, context: OperationContext): Promise<Response> {
  try {
    return await route.operation(context)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    console.error(`[agent-console-mock] ${route.method} ${route.path} failed:`, thrown)
    return new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  }
}

/** uvicorn sends no body for HEAD, but keeps every header of the answer (content-length included). */
const withoutBodyForHead = (request: Request, response: Response): Response =>
  request.method === 'HEAD' && (response.body || writtenBody(response)) ? withoutBody(response) : response

const answerThrown = (thrown: unknown): Response => {
  if (thrown instanceof Response) return thrown
  throw thrown
}

function claimTest({ base, claim }: HandlerSettings) {
  return (url: URL) => (base === '*' || url.origin === base) && (claim === 'all' || /^\/v1(\/|$)/i.test(url.pathname))
}
