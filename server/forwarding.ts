import type { IncomingMessage, ServerResponse } from 'node:http'
import { isUnder, type ForwardRoute } from '../core/forward-routes.js'
import type { MockInstance } from '../core/instance/instance.js'
import type { SessionTransport } from '../core/instance/sessions.js'
import { DEFAULT_FORWARD_TIMEOUTS, endToEnd, type ForwardTimeouts } from './proxy/forward.js'
import { headersOf, writeIncoming } from './proxy/io.js'
import { relay, relayedRecord } from './proxy/relay.js'

/**
 * `--forward <prefix>=<url>` as the CLI reads it, into {@link ForwardOptions}.
 * @throws Error for a value without `=`
 */
export function parseForward(values: readonly string[]): Record<string, string> {
  const routes: Record<string, string> = {}
  for (const value of values) {
    const at = value.indexOf('=')
    if (at < 1)
      throw new Error(`--forward takes <path prefix>=<url>, e.g. /v1/agents=http://127.0.0.1:8000 (got "${value}")`)
    routes[value.slice(0, at)] = value.slice(at + 1)
  }
  return routes
}

export interface ForwardingSettings {
  timeouts?: Partial<ForwardTimeouts>
  maxBodyBytes: number
  transport: SessionTransport
  /** The world whose journal keeps a request (its session's, or the default world). */
  instanceFor: (request: Request) => Promise<MockInstance>
  primary: MockInstance
}

/**
 * Express middleware sending requests under a forwarded prefix to their real server, as the proxy mode does
 * (server/proxy/relay.ts): the answer comes back byte for byte, bounded by the same timeouts, and the request
 * to the server is aborted when the client goes away. Ahead of the mock: a forwarded prefix wins over an
 * operation the mock implements. A session named in the path (`/__session/<key>/...`) is taken off before
 * matching and forwarding; the exchange is journaled in that session's world, with the server's URL.
 */
export function forwardingMiddleware(routes: readonly ForwardRoute[], settings: ForwardingSettings) {
  const timeouts = { ...DEFAULT_FORWARD_TIMEOUTS, ...settings.timeouts }
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): Promise<void> => {
    const raw = req.url ?? '/'
    const query = raw.indexOf('?')
    const pathname = query === -1 ? raw : raw.slice(0, query)
    const session = settings.transport.pathPrefix?.(pathname) ?? ''
    const path = pathname.slice(session.length) || '/'
    const route = routes.find((candidate) => isUnder(path, candidate.prefix))
    if (!route || !path.startsWith('/')) return next()
    try {
      const target = path + (query === -1 ? '' : raw.slice(query))
      const relayed = await relay(req, res, route.target, target, { timeouts, maxBodyBytes: settings.maxBodyBytes })
      if (!relayed) return
      // The session is named by the path, a header or a cookie: a request without its body, read after it was sent.
      const named = new Request(new URL(raw, 'http://forwarded'), { headers: headersOf(endToEnd(req.rawHeaders)) })
      const world = await settings.instanceFor(named).catch(() => settings.primary)
      world.journal.record(relayedRecord(route.target, relayed))
      writeIncoming(res, relayed.incoming, undefined, req.method)
    } catch (error) {
      next(error)
    }
  }
}
