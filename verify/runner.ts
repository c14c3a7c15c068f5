import { listPersonas } from './client/api.js'
import { runCheck, type Check } from './checks/check.js'
import { ALL_CHECKS } from './checks/index.js'
import { serverErrorResult } from './checks/server-errors.js'
import { VerifyContext } from './context.js'
import { DEFAULT_DEADLINE_MS } from './timeouts.js'
import { RequestTimeoutError, requestLine } from './client/http.js'
import { serverOpenApi } from './drift/openapi-source.js'
import { checkIds } from './id-preconditions.js'
import { checkPreconditions, unverifiedClaims } from './preconditions.js'
import { detectedProfile } from './profile/detection.js'
import type { CheckResult, Report, VerifyOptions } from './types.js'

/**
 * Checks a real server against the contract the mock keeps, and reports what it found.
 * Read-only unless `allowWrites`; checks whose ids or tokens are missing are skipped with the reason.
 * @throws ServerUnreachableError when the server does not answer at all; PreconditionError when it rejects
 *   a token it was given (expired, another secret, another team) or an id (a policy the token cannot read); Error for invalid options.
 * @example const report = await verify({ baseUrl: 'http://127.0.0.1:4010', token }); process.exitCode = report.ok ? 0 : 1
 */
export async function verify(options: VerifyOptions, checks: readonly Check[] = ALL_CHECKS): Promise<Report> {
  assertOptions(options)
  const started = Date.now()
  const ctx = new VerifyContext(options)
  // The first request: an unreachable server throws here, before any check.
  await ctx.sendingAs('the start of the run', () => serverOpenApi(ctx))
  const discovered = await ctx.sendingAs('the team discovery', () => discoverTeam(ctx))
  const notes = [discovered].filter((note): note is string => note !== undefined)
  await ctx.sendingAs('the token preconditions', () => checkPreconditions(ctx))
  await ctx.sendingAs('the id preconditions', () => checkIds(ctx))
  const { results, skippedForDeadline } = await runChecks(checks, ctx)
  // Last, reading what every request of the run (preconditions, probes, checks) was answered.
  const serverErrors = serverErrorResult(ctx, skippedForDeadline.length > 0)
  if (serverErrors.status === 'skipped') skippedForDeadline.push(serverErrors.id)
  listWithItsGroup(results, serverErrors)
  notes.push(
    `${ctx.client.sent} requests${options.allowWrites ? `; values added are named ${ctx.uniqueValue('*')}` : ''}`,
    ...(ctx.client.rateLimited
      ? [`${ctx.client.rateLimited} refused with 429 (a rate limit) and sent again after the wait it asked for`]
      : []),
  )
  return {
    baseUrl: options.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ok: results.every((result) => result.status !== 'failed'),
    summary: summarise(results),
    ids: { ...ctx.ids },
    notes,
    checks: results,
    profile: detectedProfile(ctx.profile),
    ...(skippedForDeadline.length
      ? { cutShort: { deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS, skippedChecks: skippedForDeadline } }
      : {}),
  }
}

/**
 * Runs the checks one after another, each sending as itself, and tells which the deadline skipped: those it had
 * passed before they began (time only moves on, so `runCheck` finds it passed too and skips them for it).
 */
async function runChecks(
  checks: readonly Check[],
  ctx: VerifyContext,
): Promise<{ results: CheckResult[]; skippedForDeadline: string[] }> {
  const results: CheckResult[] = []
  const skippedForDeadline: string[] = []
  for (const check of checks) {
    if (ctx.pastDeadline) skippedForDeadline.push(check.id)
    results.push(await ctx.sendingAs(check.id, () => runCheck(check, ctx)))
  }
  return { results, skippedForDeadline }
}

/**
 * Lists a result after the last of its group's (every report shows a group's checks together; JUnit nests them), or
 * last when none of its group ran.
 */
function listWithItsGroup(results: CheckResult[], result: CheckResult): void {
  const last = results.findLastIndex((other) => other.group === result.group)
  results.splice(last < 0 ? results.length : last + 1, 0, result)
}

function assertOptions(options: VerifyOptions): void {
  if (!/^https?:\/\/[^/]/.test(options.baseUrl ?? ''))
    throw new Error(`baseUrl must be an http(s) URL, not ${JSON.stringify(options.baseUrl)}`)
  if (!options.token) throw new Error('token is required: a team-scoped token with persona:read and policy:read')
  for (const name of ['timeoutMs', 'deadlineMs'] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new Error(`${name} must be a positive integer of milliseconds`)
  }
}

/**
 * The team is the token's `team_id` claim, or else the one the token's personas belong to ("where
 * the API allows"): the most common team_id of a page, so that one record leaking from another
 * team cannot mislead the run.
 */
async function discoverTeam(ctx: VerifyContext): Promise<string | undefined> {
  if (ctx.ids.teamId) return undefined
  const claimed = unverifiedClaims(ctx.options.token)?.team_id
  if (typeof claimed === 'string' && claimed) {
    ctx.ids.teamId = claimed
    return `team ${claimed} read from the token's team_id claim`
  }
  const ask = async (limit?: number) => {
    const request = listPersonas(ctx, { team_id: undefined, limit })
    const answer = await ctx.send(request).catch((error: unknown) => {
      if (error instanceof RequestTimeoutError) return undefined
      throw error
    })
    return { request, answer }
  }
  let { request, answer } = await ask(100)
  // A server whose maximum limit is below 100 refuses that page: its default page still names the team.
  if (answer?.status === 422) ({ request, answer } = await ask())
  if (!answer) return `no team was discovered: ${requestLine(request)} got no answer in time`
  const results = (answer.json as { results?: Array<{ team_id?: unknown }> } | undefined)?.results
  const teamId = mostCommon(
    (Array.isArray(results) ? results : [])
      .map((persona) => persona?.team_id)
      .filter((id): id is string => typeof id === 'string'),
  )
  if (answer.status !== 200 || !teamId)
    return `no team was discovered: GET /v1/personas/ with the token answered ${answer.status} without a persona`
  ctx.ids.teamId = teamId
  return `team ${teamId} discovered from the personas the token lists`
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
}

function summarise(results: readonly CheckResult[]): Report['summary'] {
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    warnings: results.reduce((sum, result) => sum + result.warnings.length, 0),
  }
}
