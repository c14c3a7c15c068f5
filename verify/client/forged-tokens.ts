/** Tokens made from a real one that a server must refuse: what the auth checks and the preconditions send. */

/** A JWT with one character of its signature changed: well formed, signed wrongly. */
export function tamperedToken(token: string): string {
  const parts = token.split('.')
  const signature = parts[2]
  if (parts.length !== 3 || !signature) return `${token}x`
  const at = Math.floor(signature.length / 2)
  const changed = signature[at] === 'A' ? 'B' : 'A'
  return [parts[0], parts[1], signature.slice(0, at) + changed + signature.slice(at + 1)].join('.')
}

/** The header of an unsigned JWT: `{"alg":"none","typ":"JWT"}`, base64url-encoded. */
const UNSIGNED_HEADER = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')

/** The token's claims under an `alg: none` header with an empty signature: a server must not trust it. */
export function unsignedToken(token: string): string {
  return `${UNSIGNED_HEADER}.${token.split('.')[1] ?? ''}.`
}
