import { type JWTPayload, SignJWT } from 'jose'
import { z } from 'zod'
import { decodeJsonBody } from '../../fastapi/python/json-decode.js'
import { PyDict, type PyValue } from '../../fastapi/python/value.js'
import { Claims, claimsOf, isCurrent } from './claims.js'

/**
 * The development secret the mock signs and checks tokens with. It is not a secret in any
 * real sense: it is documented so that tests and tools can mint their own tokens.
 */
export const DEVELOPMENT_JWT_SECRET = 'agent-console-mock-development-secret'

const encoder = new TextEncoder()

/**
 * Tokens longer than this are refused unread: a token travels in the request head, and uvicorn never
 * takes a head past 256 KiB. Its h11 parser refuses a head still incomplete past 16 KiB, and asyncio
 * reads at most 256 KiB at a time, so only a head that arrives in one read can be longer than 16 KiB.
 */
export const MAX_TOKEN_LENGTH = 256 * 1024

/**
 * How deep the header and the payload may nest: past it `json.loads` raises `RecursionError` inside
 * the server (its 500; here 401). The depths are the reference app's (test/fastapi) under uvicorn: CPython
 * counts the Python frames under the call too, and the header is decoded two frames deeper.
 */
const MAX_HEADER_DEPTH = 986
const MAX_PAYLOAD_DEPTH = 988

/** A time claim as PyJWT reads it: a number, or a string of an integer (it takes `int()` of it). */
const TimeClaim = z.union([z.number(), z.string().regex(/^\s*[+-]?\d+\s*$/)])

/** Whether Python reads a JSON value as true: `aud` is refused when it is. */
const pythonTruthy = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.length > 0
    : typeof value === 'object' && value !== null
      ? Object.keys(value).length > 0
      : Boolean(value)

/**
 * Claims to sign: the server's, `exp: null` for a token that never expires, and any other claim beside them but an
 * audience (PyJWT, given none to expect, refuses every token that names one).
 */
export const TokenClaims = Claims.extend({
  iat: TimeClaim.optional(),
  nbf: TimeClaim.optional(),
  exp: TimeClaim.nullable().optional(),
})
  .loose()
  .refine((claims) => !pythonTruthy(claims.aud), {
    path: ['aud'],
    message: 'the API refuses every token that names an audience',
  })
// Not `Omit<z.input<typeof Claims> & Record<string, unknown>, 'exp'>`: omitting from a type with an index signature
// keeps only the index signature, and `sub` would no longer be required.
export type TokenClaims = z.input<typeof TokenClaims>

/** Now in whole Unix seconds, as PyJWT reads the time: the default of every `now` below (a mock's clock passes its own). */
const realNow = (): number => Math.floor(Date.now() / 1000)

/**
 * Signs claims as an HS256 JWT. `iat` defaults to `now` and `exp` to one day later; pass
 * them explicitly (or `exp: null` for none) for a token that does not depend on the clock.
 * @example await mintToken({ sub: userId, team_id: teamId, permissions: ['persona:read'] })
 */
export async function mintToken(
  claims: TokenClaims,
  secret: string = DEVELOPMENT_JWT_SECRET,
  now: number = realNow(),
): Promise<string> {
  const checked = TokenClaims.safeParse(claims)
  // A token without `sub` (or with a claim the server's model refuses) would only be refused by the API, with 401.
  if (!checked.success)
    throw new TypeError(`mintToken: these claims make a token the API refuses: ${issuesOf(checked.error)}`)
  if (!secret) throw new RangeError('mintToken: the secret must be a non-empty string (HS256 takes no empty key).')
  const { exp = now + 86_400, ...rest } = claims
  const payload = { iat: now, ...rest, ...(exp === null ? {} : { exp }) }
  // jose takes only this realm's Uint8Array: under jsdom, TextEncoder is jsdom's and its bytes another realm's.
  const key = new Uint8Array(encoder.encode(secret))
  // Signed as given: a time claim may be a string of an integer, which PyJWT reads with `int()` (jose types it a number).
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key)
}

/** A zod error as `path: message` for each issue. */
const issuesOf = (error: z.ZodError): string =>
  error.issues.map(({ path, message }) => `${path.join('.') || 'the claims'}: ${message}`).join('; ')

/**
 * Checks a token as the server does: `jwt.decode(token, secret, algorithms=["HS256"],
 * options={"require": ["sub"]})` of PyJWT 2.6, then its `Claims` model, at `now` (whole Unix seconds).
 * @returns the claims, or `undefined` for any token the server answers 401 (or 500) to.
 */
export async function verifyToken(
  token: string,
  secret: string = DEVELOPMENT_JWT_SECRET,
  now: number = realNow(),
): Promise<Claims | undefined> {
  return decodeToken(token, await hmacKey(secret), now)
}

/** The secret as an HMAC key; none for an empty secret (Web Crypto refuses it, so every token is refused). */
const hmacKey = (secret: string) =>
  crypto.subtle
    .importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    .catch(() => undefined)

type HmacKey = Awaited<ReturnType<typeof hmacKey>>

const DOT = 0x2e

/** `PyJWS._load` and `decode_complete`, then `PyJWT.decode_complete`: every way they refuse, refused. */
async function decodeToken(token: string, key: HmacKey, now: number): Promise<Claims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH || !key) return undefined
  // Starlette reads headers as Latin-1 and PyJWT encodes the token as UTF-8, as TextEncoder does.
  const bytes = encoder.encode(token)
  const last = bytes.lastIndexOf(DOT)
  const first = bytes.indexOf(DOT)
  if (first === last) return undefined
  const header = jsonObject(base64UrlDecode(bytes.subarray(0, first)), MAX_HEADER_DEPTH)
  const payload = base64UrlDecode(bytes.subarray(first + 1, last))
  const signature = base64UrlDecode(bytes.subarray(last + 1))
  if (!header || !payload || !signature || !headerAllows(header)) return undefined
  if (!(await crypto.subtle.verify('HMAC', key, signature, bytes.subarray(0, last)))) return undefined
  const claims = jsonObject(payload, MAX_PAYLOAD_DEPTH)
  return claims && claimsOf(claims, now)
}

/** `_validate_headers` (`kid`, `crit`), the detached payload `b64: false` asks for, and the algorithm. */
function headerAllows(header: PyDict): boolean {
  const crit = header.get('crit')
  const critKnown = Array.isArray(crit) && crit.length > 0 && crit.every((ext) => ext === 'b64') && header.has('b64')
  return (
    (!header.has('kid') || typeof header.get('kid') === 'string') &&
    (!header.has('crit') || critKnown) &&
    header.get('b64') !== false &&
    header.get('alg') === 'HS256'
  )
}

/** `json.loads(data)` when it gives a dict no deeper than `maxDepth`. */
function jsonObject(data: Uint8Array | undefined, maxDepth: number): PyDict | undefined {
  const decoded = data && decodeJsonBody(data)
  return decoded?.ok && decoded.value instanceof PyDict && depthOf(decoded.value) <= maxDepth
    ? decoded.value
    : undefined
}

function depthOf(value: PyValue): number {
  let deepest = 0
  const stack: Array<[PyValue, number]> = [[value, 1]]
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [item, depth] = top
    if (!Array.isArray(item) && !(item instanceof PyDict)) continue
    deepest = Math.max(deepest, depth)
    for (const child of item instanceof PyDict ? item.values() : item) stack.push([child, depth + 1])
  }
  return deepest
}

/** Sextet of each byte for `urlsafe_b64decode`: both alphabets (`-` `+` are 62, `_` `/` 63), -1 otherwise. */
const SEXTETS = new Int8Array(256).fill(-1)
for (const [i, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  SEXTETS[char.charCodeAt(0)] = i
}
SEXTETS[0x2d] = 62 // -
SEXTETS[0x5f] = 63 // _

/**
 * PyJWT's `base64url_decode`: `=` appended to a multiple of four bytes, then CPython 3.11's lenient
 * `binascii.a2b_base64`: bytes outside the alphabet are skipped, a pad that completes a quad ends the
 * data, and a quad left unfinished is an error (`undefined`).
 */
function base64UrlDecode(input: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  const length = input.length + ((4 - (input.length % 4)) % 4)
  const out = new Uint8Array(Math.ceil(length / 4) * 3)
  let [size, quad, left, pads] = [0, 0, 0, 0]
  for (let i = 0; i < length; i++) {
    const byte = i < input.length ? (input[i] as number) : 0x3d
    if (byte === 0x3d) {
      if (quad >= 2 && quad + ++pads >= 4) return out.subarray(0, size)
      continue
    }
    const sextet = SEXTETS[byte] as number
    if (sextet < 0) continue
    pads = 0
    if (quad === 1) out[size++] = (left << 2) | (sextet >> 4)
    else if (quad === 2) out[size++] = ((left << 4) | (sextet >> 2)) & 0xff
    else if (quad === 3) out[size++] = ((left << 6) | sextet) & 0xff
    left = quad === 0 ? sextet : sextet & (quad === 1 ? 0x0f : quad === 2 ? 0x03 : 0)
    quad = (quad + 1) % 4
  }
  return quad === 0 ? out.subarray(0, size) : undefined
}

/** How many distinct valid tokens a verifier remembers. */
const TOKEN_CACHE_SIZE = 1000
/** Longer valid tokens are checked on every use, so the remembered ones hold at most TOKEN_CACHE_SIZE times this many characters. */
const CACHED_TOKEN_LENGTH = 8192

/**
 * A `verifyToken` for one secret that checks each distinct valid token's signature once.
 * A remembered token is still checked against the clock (`now`, whole Unix seconds: each
 * request passes its instance's) on every use, so it stops working the second it expires.
 * Refused tokens are not remembered (one with `nbf` in the future becomes valid later), and
 * at most TOKEN_CACHE_SIZE tokens are kept.
 */
export function createTokenVerifier(
  secret: string = DEVELOPMENT_JWT_SECRET,
): (token: string, now?: number) => TokenCheck {
  const valid = new Map<string, Claims>()
  const key = hmacKey(secret)
  const check = async (token: string, now: number) => {
    const claims = await decodeToken(token, await key, now)
    if (claims && token.length <= CACHED_TOKEN_LENGTH) {
      if (valid.size >= TOKEN_CACHE_SIZE) valid.delete(valid.keys().next().value as string)
      valid.set(token, claims)
    }
    return claims
  }
  return (token, now = realNow()) => {
    const known = valid.get(token)
    if (!known) return check(token, now)
    return isCurrent(known, now) ? known : (valid.delete(token), undefined)
  }
}

/**
 * What checking a token found: at once for a token remembered valid (nearly every request), else once its
 * signature is checked. Answering at once spares each request the promises of an `async` chain, which msw 3's
 * async hooks make dear (docs/performance.md).
 */
export type TokenCheck = Claims | undefined | Promise<Claims | undefined>

/** `next` applied to what a token check found: at once when it is known, after the check otherwise. */
export const afterCheck = <R>(check: TokenCheck, next: (claims: Claims | undefined) => R): R | Promise<R> =>
  check instanceof Promise ? check.then(next) : next(check)
