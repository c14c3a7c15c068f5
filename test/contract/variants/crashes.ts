import { HttpResponse, type RequestHandler } from 'msw'
import { Intent } from '../../../model/enums.js'
import { BULK, forward, OPENAPI, override, PERSONAS } from '../support/variant.js'
import { bodyOf } from './helpers.js'

/**
 * Variants of the mock after real FastAPI servers that crash (an unhandled exception: 500 with FastAPI's plain
 * text) where the request never reaches a check that judges the status: only `errors.server-error` can catch them.
 * And one that is only slow, for the run's deadline.
 */

/** What Starlette answers for an unhandled exception. */
const crash = () =>
  new HttpResponse('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } })

/** Whether a personas request filters by an intent outside the vocabulary. */
function asksUnknownIntent(request: Request): boolean {
  const known: readonly string[] = Intent.options
  return new URL(request.url).searchParams.getAll('intents').some((intent) => !known.includes(intent))
}

/**
 * Broken: `{"values": []}` to a dimension that exists crashes (`RuntimeError("empty bulk")`). The only empty add verify
 * sends to a real dimension is the `--dimension-id` precondition, which stops on a 404 only.
 */
export const emptyBulkCrashes = (): RequestHandler[] => [
  override('post', BULK, async (request) => {
    const body = await bodyOf(request)
    const response = await forward(request)
    const empty = Array.isArray(body?.values) && body.values.length === 0
    return empty && response.ok ? crash() : response
  }),
]

/**
 * Broken: an intent outside the vocabulary crashes (`raise ValueError("unknown intent")`) where the mock answers 200
 * with no match. Only `profile.intents` sends one, and it falls back to /openapi.json on an answer it cannot read.
 */
export const unknownIntentCrashes = (): RequestHandler[] => [
  override('get', PERSONAS, (request) => (asksUnknownIntent(request) ? crash() : undefined)),
]

/**
 * A rate limiter in front of a correct server: the probe with an unknown intent gets `503` with `Retry-After`.
 * Not a crash, but the request went unverified: it fails too, saying so.
 */
export const unknownIntentRateLimited = (): RequestHandler[] => [
  override('get', PERSONAS, (request) =>
    asksUnknownIntent(request)
      ? HttpResponse.json({ detail: 'Too many requests, slow down' }, { status: 503, headers: { 'retry-after': '30' } })
      : undefined,
  ),
]

/**
 * Correct but slow: `/openapi.json`, the run's first request, answers after `delayMs`. The run's clock starts
 * before it, so a deadline shorter than the delay has passed before the first check, however fast the machine.
 */
export const openApiDelayed = (delayMs: number): RequestHandler[] => [
  override('get', OPENAPI, async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    return undefined
  }),
]
