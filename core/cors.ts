import type { Answer } from './exchange.js'

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS'
const EXPOSED_HEADERS = 'location, www-authenticate, allow, content-length'

/**
 * CORS for frontends served from another origin: the request's origin is allowed (with
 * credentials), and a preflight (OPTIONS with `Access-Control-Request-Method`) is answered
 * here with 204. A request without `Origin`, and a plain OPTIONS, go on unchanged, so
 * same-origin answers stay exactly FastAPI's (an OPTIONS to an API route is still a 405).
 * `transportHeaders` are the request headers the session transport reads: allowed by
 * default, and exposed.
 */
export function withCors(next: Answer, transportHeaders: readonly string[]): Answer {
  const allowed = ['authorization', 'content-type', ...transportHeaders].join(', ')
  const exposed = [EXPOSED_HEADERS, ...transportHeaders].join(', ')
  return async (exchange) => {
    const origin = exchange.request.headers.get('origin')
    if (!origin) return next(exchange)
    const requestedMethod = exchange.request.headers.get('access-control-request-method')
    if (exchange.request.method === 'OPTIONS' && requestedMethod) {
      const requestedHeaders = exchange.request.headers.get('access-control-request-headers')
      return new Response(null, {
        status: 204,
        headers: {
          ...grant(origin, exposed),
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': requestedHeaders ?? allowed,
          'access-control-max-age': '600',
        },
      })
    }
    const response = await next(exchange)
    if (response.type !== 'error') for (const [name, value] of Object.entries(grant(origin, exposed))) response.headers.set(name, value)
    return response
  }
}

const grant = (origin: string, exposed: string) => ({
  'access-control-allow-origin': origin,
  'access-control-allow-credentials': 'true',
  'access-control-expose-headers': exposed,
  vary: 'origin',
})
