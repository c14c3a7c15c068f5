import { isNetworkError, type Reply } from '../fastapi/http/reply.js'
import { plainTextReply } from '../fastapi/http/responses.js'
import type { Answer } from './exchange.js'

/** Starlette's `CORSMiddleware` settings (its parameters, in camel case). */
export interface CorsSettings {
  /** Origins allowed; `*` for any; or a test of the origin (as `allow_origin_regex`). */
  allowOrigins: readonly string[] | ((origin: string) => boolean)
  allowCredentials: boolean
  /** Request headers a preflight allows, beyond the transport's; `*` mirrors what is asked. */
  allowHeaders: readonly string[]
  exposeHeaders: readonly string[]
}

/** What a FastAPI app for a browser frontend typically mounts: any origin, credentials, any method and header. */
export const DEV_CORS: CorsSettings = {
  allowOrigins: ['*'],
  allowCredentials: true,
  allowHeaders: ['*'],
  exposeHeaders: ['location', 'www-authenticate', 'allow', 'content-length'],
}

const ALL_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']
const SAFELISTED_HEADERS = ['accept', 'accept-language', 'content-language', 'content-type']

/**
 * Starlette's `CORSMiddleware` with `allow_methods=["*"]`: a preflight (OPTIONS with
 * `Access-Control-Request-Method` and an `Origin`) is answered here, `200 OK` in plain text
 * or `400 Disallowed CORS ...`; any other request with an `Origin` gets the simple headers.
 * A request without `Origin` goes on unchanged, so same-origin answers stay exactly FastAPI's.
 * `transportHeaders`, the request headers the session transport reads, are allowed and exposed.
 */
export function withCors(next: Answer, settings: CorsSettings, transportHeaders: readonly string[]): Answer {
  const origins = settings.allowOrigins
  const allowAllOrigins = typeof origins !== 'function' && origins.includes('*')
  const allowAllHeaders = settings.allowHeaders.includes('*')
  const allowHeaders = [...new Set([...SAFELISTED_HEADERS, ...settings.allowHeaders, ...transportHeaders])].sort()
  const exposed = [...settings.exposeHeaders, ...transportHeaders].join(', ')
  const simple: Record<string, string> = {
    ...(allowAllOrigins ? { 'access-control-allow-origin': '*' } : {}),
    ...(settings.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
    ...(exposed ? { 'access-control-expose-headers': exposed } : {}),
  }
  const allowed = (origin: string) =>
    allowAllOrigins || (typeof origins === 'function' ? origins(origin) : origins.includes(origin))

  // Written as Starlette writes them: its preflight headers in the order its middleware sets them.
  const preflight = (request: Request, origin: string): Reply => {
    const explicitOrigin = !allowAllOrigins || settings.allowCredentials
    const headers: Record<string, string> = {
      ...(explicitOrigin ? { vary: 'Origin' } : { 'access-control-allow-origin': '*' }),
      'access-control-allow-methods': ALL_METHODS.join(', '),
      'access-control-max-age': '600',
      ...(!allowAllHeaders ? { 'access-control-allow-headers': allowHeaders.join(', ') } : {}),
      ...(settings.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
    }
    const failures: string[] = []
    if (allowed(origin)) {
      if (explicitOrigin) headers['access-control-allow-origin'] = origin
    } else failures.push('origin')
    if (!ALL_METHODS.includes(request.headers.get('access-control-request-method') ?? '')) failures.push('method')
    const requested = request.headers.get('access-control-request-headers')
    if (allowAllHeaders && requested !== null) headers['access-control-allow-headers'] = requested
    else if (requested?.split(',').some((name) => !allowHeaders.includes(name.trim().toLowerCase()))) {
      failures.push('headers')
    }
    const text = failures.length ? `Disallowed CORS ${failures.join(', ')}` : 'OK'
    return plainTextReply(failures.length ? 400 : 200, text, headers)
  }

  return async (exchange) => {
    const { request } = exchange
    const origin = request.headers.get('origin')
    if (origin === null) return next(exchange)
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method'))
      return preflight(request, origin)
    const response = await next(exchange)
    if (isNetworkError(response)) return response
    for (const [name, value] of Object.entries(simple)) response.headers.set(name, value)
    // With a cookie, or when only some origins are allowed, the origin itself is named.
    if ((allowAllOrigins && request.headers.has('cookie')) || (!allowAllOrigins && allowed(origin))) {
      response.headers.set('access-control-allow-origin', origin)
      response.headers.append('vary', 'Origin')
    }
    return response
  }
}
