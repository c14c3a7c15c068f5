import type { OperationName } from '../api/routes.js'
import { QueryParams } from '../fastapi/query-string.js'
import { httpError, methodNotAllowed, notFound, temporaryRedirect } from '../fastapi/responses.js'
import type { Route, RouteResult } from '../fastapi/router.js'
import { statusPhrase } from '../fastapi/status-phrases.js'
import { OPERATIONS } from '../handlers/index.js'
import type { MockInstance } from '../mock/instance.js'
import { redirectLocation } from '../python/url-quote.js'
import { settle } from './boundary.js'
import type { Exchange } from './exchange.js'
import type { CoreSettings } from './settings.js'

/**
 * The API: answers a request routed as Starlette routes it (an operation, or the router's
 * 307/405/404) on the request's instance, with the instance's faults, and writes it to the
 * instance's journal.
 */
export function createApi(settings: CoreSettings) {
  return async (exchange: Exchange, result: RouteResult<Route>): Promise<Response> => {
    const started = performance.now()
    const instance = await settings.instanceFor(exchange.request)
    const response = await settle(
      () => answer(result, exchange, instance, settings),
      (error) => settings.logError(`${exchange.request.method} ${exchange.url.pathname} failed:`, error),
    )
    journal(instance, exchange, response.status, started)
    return response
  }
}

async function answer(
  result: RouteResult<Route>,
  { request, url }: Exchange,
  instance: MockInstance,
  settings: CoreSettings,
): Promise<Response> {
  switch (result.kind) {
    case 'match': {
      const name = result.route.name as OperationName
      return (
        (await faultOf(name, instance, settings)) ??
        OPERATIONS[name]({
          request,
          params: result.params,
          query: new QueryParams(url.search.slice(1)),
          world: instance.world,
          profile: settings.profile,
          verifyToken: settings.verifyToken,
        })
      )
    }
    case 'redirect':
      return temporaryRedirect(redirectLocation(url, result.path))
    case 'method_not_allowed':
      return methodNotAllowed(result.allow)
    case 'not_found':
      return notFound()
  }
}

/** Waits the configured latency; then the answer a fault puts in place of the operation's, if any. */
async function faultOf(
  operation: OperationName,
  instance: MockInstance,
  settings: CoreSettings,
): Promise<Response | undefined> {
  const fault = instance.faults.decide(operation)
  const wait = settings.delayMs + fault.latencyMs
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  if (fault.outcome === 'drop') return Response.error()
  if (fault.outcome !== 'answer') return httpError(fault.outcome.status, statusPhrase(fault.outcome.status))
  return undefined
}

function journal(instance: MockInstance, { request, url }: Exchange, status: number, started: number): void {
  instance.journal.record({
    time: new Date().toISOString(),
    method: request.method,
    path: url.pathname,
    query: url.search.slice(1),
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  })
}
