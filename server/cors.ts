import type { IncomingMessage, ServerResponse } from 'node:http'

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS'
const ALLOWED_HEADERS = 'authorization, content-type, x-mock-session'
const EXPOSED_HEADERS = 'location, www-authenticate, allow, content-length, x-mock-session'

/**
 * CORS for frontends served from another origin: the request's origin is allowed (with
 * credentials), and a preflight (OPTIONS with `Access-Control-Request-Method`) is answered
 * here with 204. A request without `Origin`, and a plain OPTIONS, go on unchanged, so
 * same-origin answers stay exactly FastAPI's (an OPTIONS to an API route is still a 405).
 * Node's own request and response only, so it runs in Express and without it.
 * @returns whether it answered the request (a preflight)
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin
  if (!origin) return false
  res.setHeader('access-control-allow-origin', origin)
  res.setHeader('access-control-allow-credentials', 'true')
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS)
  res.setHeader('vary', 'origin')
  if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false
  res.setHeader('access-control-allow-methods', ALLOWED_METHODS)
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS)
  res.setHeader('access-control-max-age', '600')
  res.statusCode = 204
  res.end()
  return true
}

/** {@link applyCors} as Express middleware. */
export const cors = () => (req: IncomingMessage, res: ServerResponse, next: () => void) => {
  if (!applyCors(req, res)) next()
}
