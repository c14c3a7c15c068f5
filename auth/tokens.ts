import { SignJWT, jwtVerify } from 'jose'
import { Claims, type ClaimsInput } from './claims.js'

/**
 * The development secret the mock signs and checks tokens with. It is not a secret in any
 * real sense: it is documented so that tests and tools can mint their own tokens.
 */
export const DEVELOPMENT_JWT_SECRET = 'agent-console-mock-development-secret'

const encoder = new TextEncoder()

/**
 * Tokens longer than this are refused unread. uvicorn's HTTP parser would not even pass a
 * header this large to the app; the mock answers 401 like any other bad token.
 */
export const MAX_TOKEN_LENGTH = 8192

/** Claims to sign: `exp: null` signs a token that never expires. */
export type TokenClaims = Omit<ClaimsInput, 'exp'> & { exp?: number | null }

/**
 * Signs claims as an HS256 JWT. `iat` defaults to now and `exp` to one day later; pass
 * them explicitly (or `exp: null` for none) for a token that does not depend on the clock.
 * @example await mintToken({ sub: userId, team_id: teamId, permissions: ['persona:read'] })
 */
export async function mintToken(claims: TokenClaims, secret: string = DEVELOPMENT_JWT_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const { exp = now + 86_400, ...rest } = claims
  const payload = { iat: now, ...rest, ...(exp === null ? {} : { exp }) }
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(encoder.encode(secret))
}

/**
 * Checks an HS256 token the way the imagined server does: signature, algorithm, `exp`,
 * `nbf` and an `iat` in the future refuse it, and so does a payload without `sub`.
 * @returns the claims, or `undefined` for any token that cannot be validated.
 */
export async function verifyToken(token: string, secret: string = DEVELOPMENT_JWT_SECRET): Promise<Claims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] })
    const claims = Claims.safeParse(payload)
    return claims.success && isCurrent(claims.data) ? claims.data : undefined
  } catch {
    return undefined
  }
}

/**
 * Whether the token's time claims hold now. jose checked `exp` and `nbf` already; PyJWT
 * also refuses a token issued in the future, which jose only checks against a max age.
 */
function isCurrent(claims: Claims, now = Math.floor(Date.now() / 1000)): boolean {
  return (
    (claims.exp === undefined || claims.exp > now) &&
    (claims.nbf === undefined || claims.nbf <= now) &&
    (claims.iat === undefined || claims.iat <= now)
  )
}

/** How many distinct valid tokens a verifier remembers. */
export const TOKEN_CACHE_SIZE = 1000

/**
 * A `verifyToken` for one secret that checks each distinct valid token's signature once.
 * A remembered token is still checked against the clock on every use, so it stops working
 * the second it expires. Refused tokens are not remembered (one with `nbf` in the future
 * becomes valid later), and at most TOKEN_CACHE_SIZE tokens are kept.
 */
export function createTokenVerifier(
  secret: string = DEVELOPMENT_JWT_SECRET,
): (token: string) => Promise<Claims | undefined> {
  const valid = new Map<string, Claims>()
  return async (token) => {
    const known = valid.get(token)
    if (known) return isCurrent(known) ? known : (valid.delete(token), undefined)
    const claims = await verifyToken(token, secret)
    if (claims) {
      if (valid.size >= TOKEN_CACHE_SIZE) valid.delete(valid.keys().next().value as string)
      valid.set(token, claims)
    }
    return claims
  }
}
