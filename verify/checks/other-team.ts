import { randomUUID } from 'node:crypto'
import { listPersonas } from '../client/api.js'
import { isRecord, isUuid, sameId } from '../client/crawl.js'
import { pageLimit } from '../drift/list-bounds.js'
import type { QueryValue } from '../client/http.js'
import type { VerifyContext } from '../context.js'
import type { Check } from './check.js'
import { expectRefused } from './expectations.js'
import { unverifiedClaims } from '../preconditions.js'

/**
 * "The caller's JWT must be scoped to the team named in team_id": the personas of any other team are refused,
 * filtered or not. A random team shows a server that lists teams it does not know; only a real team of someone
 * else shows one that checks a team exists and not that the token belongs to it. Filters go too: a server may
 * take another path for them (presets of every team listed under `is_preset=true`).
 */
const QUERIES: ReadonlyArray<Record<string, QueryValue>> = [{}, { is_preset: true }, { intents: ['benign'] }]

export const otherTeamCheck: Check = {
  id: 'auth.other-team',
  kind: 'contract',
  description:
    'listing the personas of a team outside the token (a random one, and a real one when known), filtered or not, is refused (403 or 404 without a warning) and returns nothing',
  async run(scope) {
    const { ctx } = scope
    const real = await otherTeamId(ctx)
    if (!real)
      scope.note(
        'no real team of another was known (pass --other-team-id, or an --admin-token scoped to another team or that lists personas without team_id): only a random team was asked',
      )
    for (const team of [randomUUID(), ...(real ? [real] : [])])
      for (const query of QUERIES) {
        const answer = await ctx.send(listPersonas(ctx, { ...query, team_id: team }))
        if (expectRefused(scope, answer, [403, 404])) ctx.recordErrorText('teamForbidden', answer)
      }
  },
}

/** Pages of an admin's unscoped list read for a team of someone else, before giving up. */
const PAGES_SEARCHED = 10

/**
 * `--other-team-id`; else the team another token given is scoped to, where it is not the token's; else a team of
 * the personas a super admin lists without team_id that is not the token's. That list may start with many of the
 * token's own team, so it is read page by page (by the server's own maximum).
 */
export function otherTeamId(ctx: VerifyContext): Promise<string | undefined> {
  return ctx.memo('other-team', async () => {
    if (ctx.ids.otherTeamId) return ctx.ids.otherTeamId
    const admin = ctx.credentials.admin
    if (!ctx.ids.teamId) return undefined
    const claimed = claimedTeams(ctx).find((team) => !sameId(team, ctx.ids.teamId))
    if (claimed) return (ctx.ids.otherTeamId = claimed)
    if (!admin) return undefined
    const limit = await pageLimit(ctx, 'personas', 100)
    for (let page = 0; page < PAGES_SEARCHED; page++) {
      const answer = await ctx.send(listPersonas(ctx, { team_id: undefined, limit, offset: page * limit }, admin))
      const results = (answer.json as { results?: unknown } | undefined)?.results
      if (answer.status !== 200 || !Array.isArray(results)) return undefined
      const other = results
        .filter(isRecord)
        .map((record) => record['team_id'])
        .find((team): team is string => typeof team === 'string' && !sameId(team, ctx.ids.teamId))
      if (other) return (ctx.ids.otherTeamId = other)
      if (results.length < limit) return undefined
    }
    return undefined
  })
}

/** The UUID teams the admin and no-permission tokens claim (read, not verified: the server accepted them or not). */
const claimedTeams = ({ options }: VerifyContext): string[] =>
  [options.adminToken, options.noPermToken]
    .map((token) => (token ? unverifiedClaims(token)?.team_id : undefined))
    .filter(isUuid)
