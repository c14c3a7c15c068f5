import { bulkAdd, rulesPath } from './client/api.js'
import type { VerifyContext } from './context.js'
import type { ApiAnswer, ApiRequest, Credential } from './client/http.js'
import { answerText, PreconditionError } from './preconditions.js'

/**
 * The ids a run is given, asked once before any check, as the tokens are: a policy the token cannot
 * read, or a dimension the server does not know, would turn every check that uses it into a false
 * failure, so the run stops with one sentence saying what to pass instead (the command exits 2).
 */
export async function checkIds(ctx: VerifyContext): Promise<void> {
  await checkPolicy(ctx)
  await checkOtherPolicy(ctx)
  await checkDimension(ctx)
}

/** The token reads the rules of `--policy-id`: any refusal means the id is not what the rules checks need. */
async function checkPolicy(ctx: VerifyContext): Promise<void> {
  const { policyId } = ctx.ids
  if (!policyId) return
  const answer = await ctx.send(readRules(policyId, ctx.credentials.token))
  if (isRefusal(answer))
    throw new PreconditionError(
      `The server refuses the rules of --policy-id ${policyId} to --token (${answerText(answer)})${uuidHint(answer, 'policy_id')}; pass a policy of the token's team, or leave --policy-id out to skip the rules checks.`,
    )
}

/**
 * `--other-policy-id` must be refused to the token (auth.other-team-policy), so only what tells a wrong
 * id from a refusal stops the run: the same id as `--policy-id`, or one a super admin cannot find either.
 */
async function checkOtherPolicy(ctx: VerifyContext): Promise<void> {
  const { otherPolicyId, policyId } = ctx.ids
  if (!otherPolicyId) return
  if (otherPolicyId === policyId)
    throw new PreconditionError(
      `--other-policy-id is --policy-id (${otherPolicyId}); pass a policy of another team than the token's.`,
    )
  if (!ctx.credentials.admin) return
  const answer = await ctx.send(readRules(otherPolicyId, ctx.credentials.admin))
  const malformed = uuidHint(answer, 'policy_id')
  if (malformed)
    throw new PreconditionError(
      `The server does not find --other-policy-id ${otherPolicyId} even for --admin-token (${answerText(answer)})${malformed}; pass a policy of another team than the token's, or leave --other-policy-id out to skip auth.other-team-policy.`,
    )
  // The description never gives a super admin other teams' policies: one scoped to its own team refuses them
  // too. The run goes on; auth.other-team-policy says the id could not be confirmed.
  if (isRefusal(answer))
    ctx.facts.otherPolicyUnconfirmed = `--admin-token does not find it either (${answerText(answer)}): a super admin scoped to its own team, or an id that is no policy`
}

/**
 * Only a run with writes uses `--dimension-id`; it adds nothing to ask: an empty list, which a server
 * that creates a dimension on its first bulk add may take as a write, hence only then.
 */
async function checkDimension(ctx: VerifyContext): Promise<void> {
  const { dimensionId } = ctx.ids
  if (!dimensionId || !ctx.options.allowWrites || !ctx.credentials.admin) return
  const answer = await ctx.send(bulkAdd(dimensionId, { values: [] }, ctx.credentials.admin))
  const malformed = uuidHint(answer, 'dimension_id')
  if (answer.status === 404 || malformed)
    throw new PreconditionError(
      `The server does not find --dimension-id ${dimensionId} (${answerText(answer)})${malformed}; pass a dimension that exists and is kept for tests (the API cannot list dimensions), or leave --dimension-id out to skip the bulk checks.`,
    )
}

function readRules(policyId: string, auth: Credential): ApiRequest {
  return { method: 'GET', path: rulesPath(policyId), auth }
}

const isRefusal = (answer: ApiAnswer) => answer.status >= 400 && answer.status < 500

/** `: it is not a UUID` when the 422 points at the path parameter. */
function uuidHint(answer: ApiAnswer, parameter: string): string {
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail
  const atPath =
    answer.status === 422 &&
    Array.isArray(detail) &&
    detail.some((entry: { loc?: unknown }) => JSON.stringify(entry.loc) === JSON.stringify(['path', parameter]))
  return atPath ? ': it is not a UUID' : ''
}
