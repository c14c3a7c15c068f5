import { sentHostOf } from './sent-host.js'
import type { OperationName } from '../model/api/routes.js'
import type { Profile } from '../model/profile.js'
import { afterCheck } from '../model/auth/tokens.js'
import { QueryParams } from '../fastapi/http/query-string.js'
import { isNetworkError, Reply, type Outcome } from '../fastapi/http/reply.js'
import { httpError, methodNotAllowed, notFound, temporaryRedirect } from '../fastapi/http/responses.js'
import type { Route, RouteResult } from '../fastapi/http/router.js'
import { statusPhrase } from '../fastapi/http/status-phrases.js'
import type { FaultDecision } from './instance/faults.js'
import type { MockInstance } from './instance/instance.js'
import type { Operation } from './operation.js'
import {
  answerWithOverrides,
  claimsOf,
  instanceView,
  profileOf,
  scenarioView,
  type ScenarioView,
} from './scenarios/effects.js'
import { SCENARIO_HEADER, UnknownScenarioError } from './scenarios/index.js'
import { redirectLocation } from '../fastapi/python/url-quote.js'
import { settle } from './boundary.js'
import { recordOperation } from './record.js'
import type { Exchange } from './exchange.js'
import type { CoreSettings } from './settings.js'
import { writeBytes } from './instance/memory-budget.js'

/**
 * The operation that answers each route of the API (model/api/routes.ts), by endpoint name, and those of a
 * served OpenAPI document (handlers/documented/), by method and path.
 */
export type Operations = Readonly<Record<OperationName, Operation>> & Readonly<Record<string, Operation>>

/**
 * The API: answers a request routed as Starlette routes it (an operation, or the router's
 * 307/405/404) on the request's instance, with the instance's faults, and writes it to the
 * instance's journal.
 */
export function createApi(settings: CoreSettings, operations: Operations) {
  return async (exchange: Exchange, result: RouteResult<Route>): Promise<Outcome> => {
    const started = performance.now()
    const instance = await settings.instanceFor(exchange.request)
    const body = bodyCopy(exchange.request)
    let view: ScenarioView | undefined
    const answerIn = (found: ScenarioView) => answer(result, exchange, (view = found), settings, instance, operations)
    const response = await settle(
      () => {
        // The router's 307, 405 and 404 come first, as Starlette's do: they need no scenario's world.
        const found = result.kind === 'match' ? viewOf(exchange.request, instance, settings) : instanceView(instance)
        return found instanceof Promise ? found.then(answerIn) : answerIn(found)
      },
      (error) => settings.logError(`${exchange.method} ${exchange.url.pathname} failed:`, error),
    )
    const bytes = body && (await body)
    const requestBody = bytes && new Uint8Array(bytes)
    journal(instance, exchange, response, started, requestBody)
    settings.sessions?.reclaim()
    if (result.kind === 'match' && view && isRecordable(result.route.name as OperationName, response, view, instance)) {
      const now = view.clock.nowSeconds()
      const operation = result.route.name as OperationName
      const verifyToken = (token: string) => settings.verifyToken(token, now)
      recordOperation(instance, { operation, exchange, body: requestBody, response, world: view.world, verifyToken })
    }
    return response
  }
}

/**
 * The world, clock, faults and scenario effects a request is answered with: its instance's (at once: most
 * requests name no scenario), and the scenarios its `X-Mock-Scenario` names on top, for this request only
 * (400 for an unknown name).
 */
function viewOf(
  request: Request,
  instance: MockInstance,
  settings: CoreSettings,
): ScenarioView | Promise<ScenarioView> {
  const names = request.headers.get(SCENARIO_HEADER)
  return names === null ? instanceView(instance) : namedView(instance, names, settings)
}

async function namedView(instance: MockInstance, names: string, settings: CoreSettings): Promise<ScenarioView> {
  try {
    return await scenarioView(instance, settings.scenarios.resolve(names))
  } catch (error) {
    if (error instanceof UnknownScenarioError) throw httpError(400, `${error.message} (${SCENARIO_HEADER})`)
    throw error
  }
}

async function answer(
  result: RouteResult<Route>,
  { request, url, prefix, bodyLength = 0 }: Exchange,
  view: ScenarioView,
  settings: CoreSettings,
  instance: MockInstance,
  operations: Operations,
): Promise<Outcome> {
  switch (result.kind) {
    case 'match': {
      const name = result.route.name as OperationName
      const fault = view.faults.decide(name)
      const wait = settings.delayMs + fault.latencyMs
      const instead = fault.outcome === 'answer' && wait === 0 ? undefined : await faultAnswer(fault, wait)
      if (instead) return instead
      const profile = profileOf(settings.profile, view.effects)
      const answered = () =>
        answerOperation(name, result.params, { request, url }, view, profile, settings, instance, operations)
      if (!canGrow(request)) return answered()
      // Held until answered (however the answer ends): writes under way at once must not each see the same room.
      // A bulk add may create as many records as the profile in effect (a scenario's too) lets one hold.
      const records = name === 'bulk_add_values' ? (profile.bounds.bulkMaxItems ?? Infinity) : 1
      const release = instance.hold(writeBytes(bodyLength, records), 'this change')
      try {
        return await answered()
      } finally {
        release()
      }
    }
    case 'redirect':
      return temporaryRedirect(redirectLocation(url, prefix + result.path, sentHostOf(request, url)))
    case 'method_not_allowed':
      return methodNotAllowed(result.allow)
    case 'not_found':
      return notFound()
  }
}

/** An operation's answer, through the overrides the request's scenarios set on it. */
function answerOperation(
  name: OperationName,
  params: Record<string, string>,
  { request, url }: Pick<Exchange, 'request' | 'url'>,
  view: ScenarioView,
  inEffect: Profile,
  settings: CoreSettings,
  instance: MockInstance,
  operations: Operations,
): Promise<Outcome> {
  const now = view.clock.nowSeconds()
  const { world, effects } = view
  const context = { request, params, world, fixtures: view.fixtures }
  return answerWithOverrides(effects?.overrides[name], context, inEffect, (profile) =>
    operations[name]({
      request,
      params,
      query: new QueryParams(url.search.slice(1)),
      world,
      profile,
      keptJson: instance.keptJson,
      verifyToken: (token) =>
        afterCheck(settings.verifyToken(token, now), (claims) => claims && claimsOf(claims, effects)),
      now,
      intercept: instance.overrides.hook(name, { world, request, profile }),
    }),
  )
}

/**
 * Whether answering a request can add to what the memory budget counts: a read adds nothing, and a DELETE only
 * frees (so a full budget never refuses the request that makes room). Any other method may write its body.
 */
const canGrow = (request: Request): boolean => !ADDS_NOTHING.has(request.method)
const ADDS_NOTHING = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE'])

/**
 * Marks the answers a fault put in place of the operation's: what a test arranged, not what the API answers.
 * A weak set, so the mark goes with the answer once it is sent.
 */
const faultAnswers = new WeakSet<Outcome>()

/**
 * Whether the answer is the API's own, for the recorded contract: not a fault's, an override's, nor one
 * given under a scenario's claims or profile (a replay would hold a real server to what the test arranged).
 */
function isRecordable(operation: OperationName, response: Outcome, view: ScenarioView, instance: MockInstance) {
  const effects = view.effects
  if (isNetworkError(response) || faultAnswers.has(response) || instance.overrides.has(operation)) return false
  return !effects || (!effects.overrides[operation]?.length && effects.claims.length === 0 && !effects.profile)
}

/** Waits `wait` ms; then the answer a fault puts in place of the operation's, if any. */
async function faultAnswer(fault: FaultDecision, wait: number): Promise<Outcome | undefined> {
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  if (fault.outcome === 'drop') return Response.error()
  if (fault.outcome === 'answer') return undefined
  const answer = httpError(fault.outcome.status, statusPhrase(fault.outcome.status))
  faultAnswers.add(answer)
  return answer
}

/** The body for the journal: a copy, read while the operation reads the request's own (undefined: none). */
function bodyCopy(request: Request): Promise<ArrayBuffer | undefined> | undefined {
  if (!request.body) return undefined
  return request
    .clone()
    .arrayBuffer()
    .catch(() => undefined)
}

function journal(
  instance: MockInstance,
  { request, method, requested }: Exchange,
  response: Outcome,
  started: number,
  body: Uint8Array | undefined,
): void {
  instance.journal.record({
    time: new Date().toISOString(),
    method,
    url: requested,
    status: response.status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    requestHeaders: request.headers,
    requestBody: body,
    responseHeaders: response.headers,
    responseBytes:
      response instanceof Reply
        ? (response.bytes?.byteLength ?? 0)
        : Number(response.headers.get('content-length') ?? 0),
  })
}
