/** What a redacted secret is replaced with. */
export const REDACTED = '<redacted>'

/** Headers whose value is a credential: the scheme is kept (`Bearer <redacted>`), the secret is not. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization'])
/** The cookie that names a session (sessions.ts's SESSION_COOKIE; not imported, which would be a cycle through instance.ts). */
const SESSION_COOKIE = 'mock_session'
/** Headers whose whole value is a secret. */
const SECRET_HEADERS = new Set(['x-mock-control-token'])

/**
 * A request header's value as the journal may keep it: credentials redacted.
 * - `Authorization`, `Proxy-Authorization`: the scheme kept, `Bearer <redacted>` (a value without a scheme: `<redacted>`).
 * - `X-Mock-Control-Token`: `<redacted>`.
 * - `Cookie`: every cookie's name kept and its value redacted, except `mock_session`, which names a
 *   session and is no secret (`GET /__mock/sessions` lists it anyway).
 * @example redactHeader('authorization', 'Bearer eyJ...') // 'Bearer <redacted>'
 */
export function redactHeader(name: string, value: string): string {
  if (CREDENTIAL_HEADERS.has(name)) {
    const scheme = /^\s*([^\s]+)\s+\S/.exec(value)?.[1]
    return scheme ? `${scheme} ${REDACTED}` : REDACTED
  }
  if (SECRET_HEADERS.has(name)) return REDACTED
  if (name === 'cookie') return value.split(';').map(redactCookie).join(';')
  return value
}

function redactCookie(pair: string): string {
  const equals = pair.indexOf('=')
  if (equals < 0) return pair
  const name = pair.slice(0, equals)
  return name.trim() === SESSION_COOKIE ? pair : `${name}=${REDACTED}`
}
