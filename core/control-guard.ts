import { httpUrl } from './http-url.js'
import { isJsonContentType } from '../fastapi/http/body.js'
import { httpError } from '../fastapi/http/responses.js'
import type { Answer } from './exchange.js'
import { SAFE_METHODS } from './sent-method.js'

/** The path prefix of the control API; it is not part of the API and not in /openapi.json. */
export const CONTROL_PREFIX = '/__mock'

/**
 * Who may drive the control API of a server a developer runs while browsing the web
 * (docs/reliability.md, "Security"): its own pages and tools, never another web page.
 */
export interface ControlGuard {
  /** Origins trusted besides loopback ones (`http://localhost:5173`, `http://127.0.0.1:*`, `http://[::1]`). */
  allowOrigins: readonly string[]
  /** Host names the control API answers besides loopback names: the server's own addresses, `--allowed-host`. */
  allowedHosts: readonly string[]
  /** When set, every control request must carry it in `X-Mock-Control-Token` (a server bound beyond loopback). */
  token?: string
}

const CONTROL_TOKEN_HEADER = 'x-mock-control-token'

/** Whether a host name (no port; IPv6 in brackets or not) is this machine's loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name)
}

/**
 * Whether a page of `origin` may drive the control API (and be granted CORS on it): a loopback page, one named
 * with `--allow-origin`, or a page the server serves itself under one of its own names (its `/docs` on a LAN
 * address: a rebound page's origin is its own name, never one of these).
 */
export function trustedOrigin(origin: string, guard: ControlGuard): boolean {
  if (guard.allowOrigins.includes(origin)) return true
  const url = httpUrl(origin)
  return !!url && (isLoopbackHost(url.hostname) || isAllowedHost(url.hostname.toLowerCase(), guard))
}

/** Whether a host name (no port) is one the guard answers under besides loopback ones. */
const isAllowedHost = (hostname: string, guard: ControlGuard): boolean =>
  guard.allowedHosts.some((host) => host.toLowerCase().replace(/^\[|\]$/g, '') === hostname.replace(/^\[|\]$/g, ''))

/**
 * Who sent a request from another web page than the developer's own, as the browser says:
 * an `Origin` that is not trusted, or, without one, `Sec-Fetch-Site: cross-site` (an image,
 * a script or a link of another site, which carry no `Origin`). Undefined for the developer's
 * pages and for tools (curl, test runners), which send neither.
 */
export function foreignSender(request: Request, guard: ControlGuard): string | undefined {
  const origin = request.headers.get('origin')
  if (origin !== null) return trustedOrigin(origin, guard) ? undefined : origin
  return request.headers.get('sec-fetch-site') === 'cross-site' ? 'a page of another site' : undefined
}

/**
 * Refuses changes to the API sent by another web page than the developer's own ({@link foreignSender}), as the
 * control API refuses them: such a page can sign a token with the public development secret, and would
 * otherwise write into the developer's world (one kept on disk, too). Reads stay open to any origin; CORS keeps a
 * foreign page from sending a token with them (core/cors.ts, handlers/app.ts).
 */
export function withForeignChangesRefused(next: Answer, guard: ControlGuard): Answer {
  return (exchange) => {
    const { request, url } = exchange
    if (SAFE_METHODS.has(request.method) || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) return next(exchange)
    const sender = foreignSender(request, guard)
    if (sender === undefined) return next(exchange)
    return Promise.resolve(
      httpError(
        403,
        `Changes from ${sender} are refused: only the developer's own pages may change the mock. Start it with --allow-origin <that origin> to trust that page.`,
      ),
    )
  }
}

/**
 * Refuses control requests that could come from somewhere other than the developer's own
 * pages and tools: a Host that is not this server's (DNS rebinding), a missing control
 * token, a state-changing request from a foreign origin or with a body that is not JSON
 * (a "simple" cross-site request needs no preflight). The API has its own, lighter guard
 * ({@link withForeignChangesRefused}).
 */
export function withControlGuard(next: Answer, guard: ControlGuard): Answer {
  // Read on every request: a server learns its own addresses once it listens.
  const allowedHost = (hostname: string) => isAllowedHost(hostname, guard)
  return async (exchange) => {
    const { request, url } = exchange
    if (!url.pathname.startsWith(`${CONTROL_PREFIX}/`)) return next(exchange)
    const hostname = url.hostname.toLowerCase()
    if (!isLoopbackHost(hostname) && !allowedHost(hostname)) {
      return httpError(
        403,
        `Host not allowed: ${url.host}. Start the mock with --allowed-host ${url.hostname} to use its control API under that name.`,
      )
    }
    if (guard.token !== undefined && request.headers.get(CONTROL_TOKEN_HEADER) !== guard.token) {
      return httpError(401, `The control API needs the ${CONTROL_TOKEN_HEADER} header the server printed at start.`)
    }
    if (SAFE_METHODS.has(request.method)) return next(exchange)
    const sender = foreignSender(request, guard)
    if (sender !== undefined) {
      const origin = request.headers.get('origin') ?? '<that origin>'
      return httpError(
        403,
        `Control requests from ${sender} are refused: only loopback pages may change the mock. Start it with --allow-origin ${origin} to trust that page.`,
      )
    }
    // What a browser can send cross-site without a preflight always declares its length.
    const contentType = request.headers.get('content-type')
    const hasBody = contentType !== null || Number(request.headers.get('content-length') ?? 0) > 0
    if (hasBody && !(contentType && isJsonContentType(contentType))) {
      return httpError(415, 'Control requests with a body must say Content-Type: application/json.')
    }
    return next(exchange)
  }
}
