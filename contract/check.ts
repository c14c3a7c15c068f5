import type { VerifyContext } from './context.js'
import { RequestTimeoutError, ServerUnreachableError } from './http-client.js'
import { serverOpenApi } from './openapi-source.js'
import type { CheckGroup, CheckResult, Evidence } from './types.js'

/** What a check cannot run without. */
export type Need = 'team' | 'policy' | 'dimension' | 'admin token' | 'writes' | 'no-permission token' | 'openapi'

/** One contract check: a stable id (`group.name`), one line saying what it holds the server to, and the probe. */
export interface Check {
  id: string
  description: string
  needs?: readonly Need[]
  run(scope: CheckScope): Promise<void>
}

/** Thrown by `scope.skip()`: the check cannot run here, and says why. */
class SkipCheck extends Error {}

/** What a running check writes its findings into. */
export class CheckScope {
  readonly evidence: Evidence[] = []
  readonly warnings: string[] = []
  readonly notes: string[] = []

  constructor(readonly ctx: VerifyContext) {}

  /** Records the evidence unless `ok`; returns `ok`, so a check can stop when a premise fails. */
  expect(ok: boolean, evidence: Evidence): boolean {
    if (!ok) this.evidence.push(evidence)
    return ok
  }

  fail(evidence: Evidence): void {
    this.evidence.push(evidence)
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message)
  }

  note(message: string): void {
    this.notes.push(message)
  }

  skip(reason: string): never {
    throw new SkipCheck(reason)
  }
}

/**
 * Runs one check: skipped when a need is missing or the run is out of time; a request that
 * times out or finds no server fails the check with that as the evidence.
 */
export async function runCheck(check: Check, ctx: VerifyContext): Promise<CheckResult> {
  const started = performance.now()
  const scope = new CheckScope(ctx)
  const result = (status: CheckResult['status'], reason?: string): CheckResult => ({
    id: check.id,
    group: check.id.split('.')[0] as CheckGroup,
    description: check.description,
    status,
    ...(reason === undefined ? {} : { reason }),
    evidence: scope.evidence,
    warnings: scope.warnings,
    notes: scope.notes,
    durationMs: Math.round(performance.now() - started),
  })
  const missing = ctx.pastDeadline ? 'the run reached its deadline before this check' : await missingNeed(check, ctx)
  if (missing) return result('skipped', missing)
  try {
    await check.run(scope)
  } catch (error) {
    if (error instanceof SkipCheck) return result('skipped', error.message)
    scope.fail(errorEvidence(error))
  }
  return result(scope.evidence.length > 0 ? 'failed' : 'passed')
}

function errorEvidence(error: unknown): Evidence {
  if (error instanceof RequestTimeoutError || error instanceof ServerUnreachableError) {
    return { request: error.request, expected: 'an answer', got: error.message }
  }
  return { request: '(none)', expected: 'the check to run to the end', got: `verifier error: ${(error as Error).stack ?? String(error)}` }
}

/** Why a check cannot run, or undefined when it can. */
async function missingNeed(check: Check, ctx: VerifyContext): Promise<string | undefined> {
  for (const need of check.needs ?? []) {
    const reason = await NEEDS[need](ctx)
    if (reason) return reason
  }
  return undefined
}

const NEEDS: Record<Need, (ctx: VerifyContext) => string | undefined | Promise<string | undefined>> = {
  team: (ctx) => (ctx.ids.teamId ? undefined : 'no team: pass --team-id, or a token whose team has personas to discover it from'),
  policy: (ctx) => (ctx.ids.policyId ? undefined : 'needs --policy-id: the API has no way to list policies'),
  dimension: (ctx) => (ctx.ids.dimensionId ? undefined : 'needs --dimension-id: the API has no way to list dimensions'),
  'admin token': (ctx) => (ctx.credentials.admin ? undefined : 'needs --admin-token (a super admin token)'),
  writes: (ctx) => (ctx.options.allowWrites ? undefined : 'read-only run: pass --allow-writes to let verify add uniquely named values'),
  'no-permission token': (ctx) => (ctx.credentials.noPermission ? undefined : 'needs --no-perm-token (a token without persona:read and policy:read)'),
  openapi: async (ctx) => ((await serverOpenApi(ctx)).document ? undefined : 'the server publishes no /openapi.json'),
}
