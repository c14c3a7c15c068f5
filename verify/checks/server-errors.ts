import { curlCommand } from '../client/curl.js'
import { describeRequest } from '../client/http.js'
import type { ServerErrorAnswer, VerifyContext } from '../context.js'
import type { CheckResult, Evidence } from '../types.js'

/**
 * `errors.server-error`: a correct server never answers 5xx, to a valid request or an invalid one (that gets a 4xx).
 * verify never sends a request meant to crash, so every 5xx is a failure, wherever it came: a precondition that only
 * stops on a 404, or a probe that falls back to `/openapi.json`, would otherwise let a crash pass unseen.
 *
 * It is no `Check` of `ALL_CHECKS`: the runner adds it after every run's checks, whichever were given, and builds
 * it itself, since it sends nothing and a crash seen before the deadline must fail even when later checks were
 * skipped for it.
 */
export const SERVER_ERROR_CHECK = {
  id: 'errors.server-error',
  group: 'errors',
  kind: 'contract',
  description:
    'no request verify sent (preconditions, probes and checks alike) got a 5xx: a valid one gets its answer, an invalid one a 4xx',
} as const satisfies Pick<CheckResult, 'id' | 'group' | 'kind' | 'description'>

/** The same words as a check skipped by `runCheck` once the deadline has passed. */
const DEADLINE_REASON = 'the run reached its deadline before this check'

/** At most this many crashes are shown one by one: a server that crashes on everything would bury the report. */
const SHOWN = 20

/**
 * The result of `errors.server-error` for what the run recorded: failed for any 5xx; otherwise skipped when the
 * deadline cut the run short (the requests never sent were not watched), else passed.
 */
export function serverErrorResult(ctx: VerifyContext, cutShort: boolean): CheckResult {
  const crashes = ctx.serverErrors
  const result = { ...SERVER_ERROR_CHECK, warnings: [], durationMs: 0 }
  if (crashes.length === 0)
    return cutShort
      ? { ...result, status: 'skipped', reason: DEADLINE_REASON, evidence: [], notes: [] }
      : { ...result, status: 'passed', evidence: [], notes: [] }
  const notes = crashes.length > SHOWN ? [`${crashes.length - SHOWN} more 5xx answers are not shown`] : []
  return {
    ...result,
    status: 'failed',
    evidence: crashes.slice(0, SHOWN).map((crash) => evidenceOf(ctx, crash)),
    notes,
  }
}

function evidenceOf(ctx: VerifyContext, crash: ServerErrorAnswer): Evidence {
  return {
    request: `${describeRequest(crash.request)}, sent by ${crash.sentBy}`,
    expected: 'a 2xx, or a 4xx refusing it: never a 5xx',
    got: crash.retryAfter === undefined ? crash.answer : unavailable(crash),
    curl: curlCommand(ctx.client.url(crash.request), crash.request),
  }
}

/**
 * A 5xx with `Retry-After` (a rate limiter's or a maintenance 503) says the server was not there, not that it
 * crashed, but the request still went unverified, and a check that ignores the status (a precondition, a profile
 * probe) would pass on it. verify sends each request once (a bulk add must not be repeated), so it fails, saying why.
 */
function unavailable(crash: ServerErrorAnswer): string {
  return `${crash.answer} (Retry-After: ${crash.retryAfter}): the server, or a rate limiter in front of it, was unavailable, so this request was not verified; run again when it is, or exempt verify's tokens from the limit`
}
