import { http, type HttpHandler } from 'msw'
import { DEVELOPMENT_JWT_SECRET } from '../auth/tokens.js'
import { resolveProfile, type Profile, type ProfileOptions } from '../model/profile.js'
import type { World } from '../model/world.js'
import { DEFAULT_MAX_BODY_BYTES } from './fastapi/body.js'
import { QueryParams } from './fastapi/query-string.js'
import { createRouter } from './fastapi/router.js'
import { methodNotAllowed, notFound, temporaryRedirect } from './fastapi/responses.js'
import { pathFromUrlPath, redirectLocation } from './fastapi/url-quote.js'
import { API_ROUTES, type ApiRoute } from './routes.js'

export interface HandlerOptions {
  /** The world to answer from, or a function choosing it per request (sessions, resets). */
  world: World | ((request: Request) => World)
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
}

/**
 * The MSW request handlers of the whole API: one per operation, then a fallback that
 * answers as FastAPI's router does (307 to the slash twin, 405 with `allow`, 404). The same
 * array serves the browser worker, `setupServer` and the Express host.
 * @example setupServer(...createHandlers({ world: await createWorld({ seed: 1 }) }))
 */
export function createHandlers(options: HandlerOptions): HttpHandler[] {
  const dispatch = createDispatcher(options)
  const base = options.baseUrl && options.baseUrl !== '*' ? new URL(options.baseUrl).origin : '*'
  const operationHandlers = API_ROUTES.map((route) => {
    const path = `${base}${route.path.replace(/\{(\w+)\}/g, ':$1')}`
    const method = route.method === 'GET' ? http.get : http.post
    return method(path, ({ request }) => dispatch(request, route))
  })
  return [...operationHandlers, http.all('*', ({ request }) => dispatch(request))]
}

const route = createRouter(API_ROUTES)

/**
 * Routes one request as Starlette would, then runs the operation. With `only`, answers
 * solely when that route is the match (msw's own matching is case-insensitive and lax
 * about slashes, FastAPI's is not); otherwise it leaves the request to the next handler.
 */
function createDispatcher(options: HandlerOptions) {
  const profile = resolveProfile(options.profile as ProfileOptions)
  const jwtSecret = options.jwtSecret ?? DEVELOPMENT_JWT_SECRET
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const worldFor = typeof options.world === 'function' ? options.world : () => options.world as World
  const claims = claimTest(options)
  return async (request: Request, only?: ApiRoute): Promise<Response | undefined> => {
    const url = new URL(request.url)
    if (!claims(url)) return undefined
    const result = route(request.method, pathFromUrlPath(url.pathname))
    if (only && (result.kind !== 'match' || result.route !== only)) return undefined
    switch (result.kind) {
      case 'match':
        return runOperation(result.route, {
          request,
          params: result.params,
          query: new QueryParams(url.search.slice(1)),
          world: worldFor(request),
          profile,
          jwtSecret,
          maxBodyBytes,
        })
      case 'redirect':
        return temporaryRedirect(redirectLocation(url, result.path))
      case 'method_not_allowed':
        return methodNotAllowed(result.allow)
      case 'not_found':
        return notFound()
    }
  }
}

/**
 * Runs an operation; an answer it throws is its answer. Anything else thrown is a bug of
 * the mock: it is logged and answered as Starlette answers an unhandled exception.
 */
async function runOperation(route: ApiRoute, context: Parameters<ApiRoute['operation']>[0]): Promise<Response> {
  try {
    return await route.operation(context)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    console.error(`[agent-console-mock] ${route.method} ${route.path} failed:`, thrown)
    return new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  }
}

function claimTest({ baseUrl = '*', claim = 'api' }: HandlerOptions) {
  const origin = baseUrl === '*' ? undefined : new URL(baseUrl).origin
  return (url: URL) =>
    (origin === undefined || url.origin === origin) &&
    (claim === 'all' || /^\/v1(\/|$)/i.test(url.pathname))
}
