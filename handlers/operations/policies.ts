import { Permission } from '../../model/auth/claims.js'
import { pageRange } from '../../model/paging.js'
import { listRulesQuery, ListRulesPath } from '../../model/requests.js'
import { PolicyRule } from '../../model/schemas.js'
import { pathReader, queryReader, throwIfInvalid, validateParams } from '../../fastapi/http/params.js'
import { errorText } from '../../fastapi/http/error-texts.js'
import { httpError, listResponse } from '../../fastapi/http/responses.js'
import { authenticate, requirePermission } from '../../fastapi/http/security.js'
import { toIndex, type Operation } from '../../core/operation.js'
import { encodeListed } from '../../fastapi/wire/encode.js'

/**
 * `GET /v1/policies/{policy_id}/rules`: one page of a policy's rules, created_at ascending,
 * then rule_id. A policy of another team is as unknown as one that does not exist.
 */
export const listPolicyRules: Operation = async ({
  request,
  params,
  query,
  world,
  profile,
  keptJson,
  verifyToken,
  intercept,
}) => {
  const user = await authenticate(request, profile, verifyToken)
  requirePermission(user, Permission.policyRead, profile)
  const { limit, offset } = profile.rulesPaging
  const { values, errors } = validateParams(
    [
      { source: 'path', schema: ListRulesPath, read: pathReader(params) },
      { source: 'query', schema: listRulesQuery(profile), read: queryReader(query) },
    ],
    profile,
  )
  throwIfInvalid(errors)
  const { policy_id, ...paging } = values
  const overridden =
    intercept && (await intercept({ query: paging, params: { policy_id }, body: undefined, claims: user }))
  if (overridden) return overridden
  const policy = world.policyById().get(values.policy_id as string)
  if (!policy || (!user.is_super_admin && policy.team_id !== user.team_id))
    throw httpError(404, errorText(profile, 'policyNotFound'))
  const rules = world.rulesByPolicy().get(policy.id) ?? []
  const page = pageRange(rules.length, toIndex(values[offset]), toIndex(values[limit]))
  return listResponse(encodeListed(PolicyRule, rules, page, profile, keptJson), rules.length)
}
