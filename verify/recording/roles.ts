import type { ReferenceTable } from './references.js'

/**
 * Who made a request, as a recorded contract says it: a role rather than a token, since a token is the
 * mock's (its secret, its clock) and a replay asks with the real server's tokens for the same role.
 */

/** No `Authorization` header (or not a Bearer one). */
export const ANONYMOUS = 'anonymous'
/** A token the mock refused: badly signed, expired, malformed. Replay sends one no server accepts. */
export const INVALID = 'invalid'

/** A token no server accepts (signed by no one's secret): what a replay of the `invalid` role sends. */
export const INVALID_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.aW52YWxpZA'

/** The claims a role is read from (the mock's token claims). */
export interface RoleClaims {
  team_id?: string | null
  permissions: readonly string[]
  is_super_admin: boolean
}

/**
 * The role of a valid token: the fixture roles' names (`super_admin`, `team_reader`, `persona_reader`,
 * `no_permissions`) for their claims, others named by their permissions; `of team 1` when the token is
 * scoped to another team than the first.
 */
export function roleOfClaims(claims: RoleClaims, table: ReferenceTable): string {
  if (claims.is_super_admin) return 'super_admin'
  const permissions = [...claims.permissions].sort()
  const base =
    permissions.length === 0
      ? 'no_permissions'
      : sameList(permissions, ['persona:read', 'policy:read'])
        ? 'team_reader'
        : sameList(permissions, ['persona:read'])
          ? 'persona_reader'
          : `reader of ${permissions.join('+')}`
  const team = claims.team_id ? (table.get(claims.team_id.toLowerCase()) ?? 'an unknown team') : 'no team'
  return team === 'team 0' ? base : `${base} of ${team}`
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i])

/** The token of `Authorization: Bearer <token>` (the scheme in any case, as FastAPI's HTTPBearer reads it). */
export function bearerToken(authorization: string | null): string | undefined {
  if (authorization === null) return undefined
  const [scheme, token] = authorization.trim().split(/\s+/, 2)
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined
}
