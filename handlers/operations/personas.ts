import { Permission } from '../../model/auth/claims.js'
import { queryPersonas } from '../../model/persona-index.js'
import { listPersonasQuery } from '../../model/requests.js'
import { Persona } from '../../model/schemas.js'
import { queryReader, throwIfInvalid, validateParams } from '../../fastapi/http/params.js'
import { errorText } from '../../fastapi/http/error-texts.js'
import { httpError, listResponse } from '../../fastapi/http/responses.js'
import { authenticate, requirePermission } from '../../fastapi/http/security.js'
import { toIndex, type Operation } from '../../core/operation.js'
import { encodeListed } from '../../fastapi/wire/encode.js'

/**
 * `GET /v1/personas/`: a team's personas, filtered by intents, preset status and a
 * case-insensitive search over name, description and role; created_at descending, then id.
 * The team defaults to the token's; only super admins may name another team.
 */
export const listPersonas: Operation = async ({ request, query, world, profile, keptJson, verifyToken, intercept }) => {
  const user = await authenticate(request, profile, verifyToken)
  requirePermission(user, Permission.personaRead, profile)
  const parameters = { source: 'query' as const, schema: listPersonasQuery(profile), read: queryReader(query) }
  const { values, errors } = validateParams([parameters], profile)
  throwIfInvalid(errors)
  const overridden = intercept && (await intercept({ query: values, params: {}, body: undefined, claims: user }))
  if (overridden) return overridden
  const teamId = (values.team_id as string | null) ?? user.team_id
  if (!teamId) throw httpError(400, errorText(profile, 'teamRequired'))
  if (!user.is_super_admin && teamId !== user.team_id) throw httpError(403, errorText(profile, 'teamForbidden'))
  const filter = {
    intents: values.intents as string[] | null,
    isPreset: values.is_preset as boolean | null,
    search: values.search as string | null,
  }
  const team = world.personasByTeam().get(teamId)
  const page = queryPersonas(team, filter, toIndex(values.offset), toIndex(values.limit))
  return listResponse(team ? encodeListed(Persona, team.ordered, page.positions, profile, keptJson) : [], page.total)
}
