import { http, type HttpHandler } from 'msw'
import { createCore, type Core, type CoreOptions } from '../core/index.js'

export type HandlerOptions = CoreOptions

/**
 * The mock as MSW request handlers, built with msw's public API only: one `http.all` whose
 * predicate asks the core whether it answers the request, and whose resolver hands the
 * request to it. The same array serves the browser worker, `setupServer`, the Playwright
 * fixture and the Express middleware; `server.use()` overrides come before it, as always.
 * @example setupServer(...createHandlers({ instance: await MockInstance.create({ seed: 1 }), claim: 'all' }))
 */
export function createHandlers(options: HandlerOptions): HttpHandler[] {
  return handlersOf(createCore(options))
}

/** The handlers of a core built already (a host that also needs the core itself). */
export const handlersOf = (core: Core): HttpHandler[] => [
  http.all(
    ({ request }) => core.claims(request),
    ({ request }) => core.fetch(request),
  ),
]
