import { z } from 'zod'
import { parsePythonInt } from '../../fastapi/python/int-literal.js'
import { PyDict, PyFloat, type PyValue } from '../../fastapi/python/value.js'

/**
 * The claims the imagined server reads from its HS256 JWT. A token whose payload does not
 * fit (no `sub`, a `permissions` that is not a list of strings, ...) is refused with 401,
 * like any other token that cannot be validated.
 */
export const Claims = z.object({
  sub: z.string().min(1),
  team_id: z.string().nullable().optional(),
  permissions: z.array(z.string()).default([]),
  is_super_admin: z.boolean().default(false),
  iat: z.number().optional(),
  exp: z.number().optional(),
  nbf: z.number().optional(),
})

export type Claims = z.output<typeof Claims>

/** The permission names the three operations check. */
export const Permission = {
  personaRead: 'persona:read',
  policyRead: 'policy:read',
} as const

/** The server's own `Claims` model; the time claims are PyJWT's to judge, not the model's. */
const Identity = Claims.omit({ iat: true, exp: true, nbf: true })
const IDENTITY_KEYS = ['sub', 'team_id', 'permissions', 'is_super_admin'] as const

type TimeClaims = Pick<Claims, 'iat' | 'nbf' | 'exp'>

/**
 * What PyJWT 2.6's `_validate_claims` (with `options={"require": ["sub"]}`) and then the server's
 * `Claims` model make of a payload: the claims, or `undefined` where either refuses. The time claims
 * come back as numbers: `int()` of `nbf` and `exp`, `iat` as it was.
 */
export function claimsOf(payload: PyDict, now: number): Claims | undefined {
  const times = timeClaims(payload)
  // `_validate_aud` without an audience refuses any token whose `aud` is truthy.
  if (!times || !isCurrent(times, now) || isTruthy(payload.get('aud'))) return undefined
  const identity = Identity.safeParse(
    Object.fromEntries(IDENTITY_KEYS.filter((key) => payload.has(key)).map((key) => [key, payload.get(key)])),
  )
  return identity.success ? { ...identity.data, ...times } : undefined
}

/**
 * Whether time claims hold at `now` (whole Unix seconds, as PyJWT 2.6's `timegm` gives):
 * `exp` after it, `nbf` and `iat` not after it.
 */
export function isCurrent(claims: TimeClaims, now: number): boolean {
  return (
    (claims.exp === undefined || claims.exp > now) &&
    (claims.nbf === undefined || claims.nbf <= now) &&
    (claims.iat === undefined || claims.iat <= now)
  )
}

/**
 * `_validate_iat`, `_validate_nbf` and `_validate_exp`: each calls `int()` on its claim, so a numeric
 * string (`"4102444800"`, `" 1_0 "`, `"٣"`), a bool or a float passes and anything `int()` refuses
 * (`"1.5"`, NaN, infinity, null, a list) is refused. `nbf` and `exp` are compared as that int, but `iat`
 * as it was: a float compares as a float and a string raises `TypeError` (the server's 500; here 401).
 */
function timeClaims(payload: PyDict): TimeClaims | undefined {
  const times: TimeClaims = {}
  if (payload.has('iat')) {
    const iat = payload.get('iat') as PyValue
    if (pythonInt(iat) === undefined || typeof iat === 'string') return undefined
    times.iat = Number(iat instanceof PyFloat ? iat.value : iat)
  }
  for (const name of ['nbf', 'exp'] as const) {
    if (!payload.has(name)) continue
    const value = pythonInt(payload.get(name) as PyValue)
    if (value === undefined) return undefined
    times[name] = Number(value)
  }
  return times
}

/** CPython 3.11's `int_max_str_digits`: `int()` of a longer string of digits raises `ValueError`. */
const INT_MAX_STR_DIGITS = 4300
const DECIMAL_DIGITS = /\p{Nd}/gu

/** Python's `int(value)` of a JSON value, or `undefined` where it raises (any exception). */
function pythonInt(value: PyValue): bigint | undefined {
  if (typeof value === 'boolean') return value ? 1n : 0n
  if (typeof value === 'number' || typeof value === 'bigint') return BigInt(value)
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? BigInt(Math.trunc(value.value)) : undefined
  if (typeof value === 'string') {
    if ((value.match(DECIMAL_DIGITS)?.length ?? 0) > INT_MAX_STR_DIGITS) return undefined
    return parsePythonInt(value, 10)
  }
  return undefined
}

/** Python's truth value of a JSON value; `undefined` is an absent key. */
function isTruthy(value: PyValue | undefined): boolean {
  if (value === undefined || value === null || typeof value === 'boolean') return value === true
  if (typeof value === 'number' || typeof value === 'bigint') return value !== 0 && value !== 0n
  if (value instanceof PyFloat) return value.value !== 0
  if (value instanceof PyDict) return value.size > 0
  return value.length > 0
}
