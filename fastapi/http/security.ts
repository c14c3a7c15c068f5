import type { Claims } from '../../model/auth/claims.js'
import { afterCheck, type TokenCheck } from '../../model/auth/tokens.js'
import type { Profile } from '../../model/profile.js'
import { errorText } from './error-texts.js'
import { httpError } from './responses.js'
import type { Reply } from './reply.js'

const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer' }

/** `HTTPBearer`'s detail for a scheme other than Bearer where it refuses with 403 (FastAPI ≤0.121). */
export const WRONG_SCHEME_DETAIL = 'Invalid authentication credentials'

/**
 * FastAPI's `HTTPBearer()` followed by the server's JWT check: the claims of a valid token,
 * or a thrown 401/403 answer (at once when the token is remembered, else through the promise).
 * Runs before any parameter validation, as dependencies do.
 * Credentials are not trimmed (FastAPI strips them only from 0.128.1 on).
 */
export function authenticate(
  request: Request,
  profile: Profile,
  verify: (token: string) => TokenCheck,
): Claims | Promise<Claims> {
  const authorization = request.headers.get('authorization')
  const [scheme, credentials] = partition(authorization ?? '', ' ')
  if (!authorization || !scheme || !credentials) throw notAuthenticated(profile)
  if (scheme.toLowerCase() !== 'bearer') {
    throw profile.missingCredentialsStatus === 403 ? httpError(403, WRONG_SCHEME_DETAIL) : notAuthenticated(profile)
  }
  return afterCheck(verify(credentials), (claims) => {
    if (!claims) throw invalidToken(profile)
    return claims
  })
}

/** The answer to a request without credentials: 401 with the Bearer challenge, or 403 (FastAPI ≤0.121). */
export const notAuthenticated = (profile: Profile): Reply =>
  profile.missingCredentialsStatus === 403
    ? httpError(403, errorText(profile, 'notAuthenticated'))
    : httpError(401, errorText(profile, 'notAuthenticated'), BEARER_CHALLENGE)

/** The answer to a token the server cannot validate: 401 with the Bearer challenge. */
export const invalidToken = (profile: Profile): Reply =>
  httpError(401, errorText(profile, 'invalidToken'), BEARER_CHALLENGE)

/** `require(permission)`: super admins have every permission. */
export function requirePermission(claims: Claims, permission: string, profile: Profile): void {
  if (!claims.is_super_admin && !claims.permissions.includes(permission)) {
    throw httpError(403, errorText(profile, 'missingPermission', { permission }))
  }
}

export function requireSuperAdmin(claims: Claims, profile: Profile): void {
  if (!claims.is_super_admin) throw httpError(403, errorText(profile, 'superAdminRequired'))
}

/** Python's `str.partition`. */
function partition(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator)
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)]
}
