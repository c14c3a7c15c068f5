import type { VerifyContext } from '../context.js'
import { curlCommand } from '../client/curl.js'
import { RequestTimeoutError, ServerUnreachableError, type ApiRequest } from '../client/http.js'
import { serverOpenApi } from '../drift/openapi-source.js'
import type { CheckGroup, CheckKind, CheckResult, Evidence } from '../types.js'

/** What a check cannot run without. */
export type Need =
  | 'team'
  | 'policy'
  | 'other policy'
  | 'dimension'
  | 'admin token'
  | 'writes'
  | 'no-permission token'
  | 'openapi'

/**
 * One check: a stable id (`group.name`), which side of the rule it is on (`kind`: only `contract`
 * checks can fail), one line saying what it holds the server to, and the probe.
 */
export interface Check {
  id: string
  kind: CheckKind
  description: string
  needs?: readonly Need[]
  run(scope: CheckScope): Promise<void>
}

/** Evidence as checks record it: with the request itself, which becomes the curl command. */
export type Finding = Evidence & { sent?: ApiRequest }

/** Thrown by `scope.skip()`: the check cannot run here, and says why. */
class SkipCheck extends Error {}

/** What a running check writes its findings into. */
export class CheckScope {
  readonly evidence: Finding[] = []
  readonly warnings: string[] = []
  readonly notes: string[] = []

  constructor(readonly ctx: VerifyContext) {}

  /** Records the evidence unless `ok`; returns `ok`, so a check can stop when a premise fails. */
  expect(ok: boolean, evidence: Finding): boolean {
    if (!ok) this.evidence.push(evidence)
    return ok
  }

  fail(evidence: Finding): void {
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
 * times out or finds no server fails the check with that as the evidence. A check that is not
 * on the contract side never fails: what it would have recorded as evidence is a warning.
 */
export async function runCheck(check: Check, ctx: VerifyContext): Promise<CheckResult> {
  const started = performance.now()
  const scope = new CheckScope(ctx)
  const result = (status: CheckResult['status'], reason?: string): CheckResult => {
    const judged = check.kind === 'contract'
    if (!judged)
      for (const item of scope.evidence) scope.warn(`${item.request}: expected ${item.expected}, got ${item.got}`)
    return {
      id: check.id,
      group: check.id.split('.')[0] as CheckGroup,
      kind: check.kind,
      description: check.description,
      status: judged || status !== 'failed' ? status : 'passed',
      ...(reason === undefined ? {} : { reason }),
      evidence: judged
        ? scope.evidence.map(({ sent, ...evidence }) =>
            sent ? { ...evidence, curl: curlCommand(ctx.client.url(sent), sent) } : evidence,
          )
        : [],
      warnings: scope.warnings,
      notes: scope.notes,
      durationMs: Math.round(performance.now() - started),
    }
  }
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

function errorEvidence(error: unknown): Finding {
  if (error instanceof RequestTimeoutError || error instanceof ServerUnreachableError) {
    return { request: error.request, expected: 'an answer', got: error.message, sent: error.sent }
  }
  return {
    request: '(none)',
    expected: 'the check to run to the end',
    got: `verifier error: ${(error as Error).stack ?? String(error)}`,
  }
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
  team: (ctx) =>
    ctx.ids.teamId ? undefined : 'no team: pass --team-id, or a token whose team has personas to discover it from',
  policy: (ctx) => (ctx.ids.policyId ? undefined : 'needs --policy-id: the API has no way to list policies'),
  'other policy': (ctx) =>
    ctx.ids.otherPolicyId ? undefined : "needs --other-policy-id (a policy of another team than the token's)",
  dimension: (ctx) => (ctx.ids.dimensionId ? undefined : 'needs --dimension-id: the API has no way to list dimensions'),
  'admin token': (ctx) => (ctx.credentials.admin ? undefined : 'needs --admin-token (a super admin token)'),
  writes: (ctx) =>
    ctx.options.allowWrites ? undefined : 'read-only run: pass --allow-writes to let verify add uniquely named values',
  'no-permission token': (ctx) =>
    ctx.credentials.noPermission ? undefined : 'needs --no-perm-token (a token without persona:read and policy:read)',
  openapi: async (ctx) => ((await serverOpenApi(ctx)).document ? undefined : 'the server publishes no /openapi.json'),
}
