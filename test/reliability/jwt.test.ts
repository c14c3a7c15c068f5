import fc from 'fast-check'
import { CompactEncrypt, SignJWT, base64url, exportJWK, exportSPKI, generateKeyPair, generateSecret } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DEVELOPMENT_JWT_SECRET, MAX_TOKEN_LENGTH } from 'agent-console-mock'
import { readAnswer } from '../support/answer.js'
import { fuzzParameters, timeoutFor } from './support/fuzz.js'
import { PyJwtOracle, pyjwtUnavailable } from './support/pyjwt.js'

// test/node/auth.test.ts covers alg none, HS512, a wrong signature, a tampered payload, exp,
// nbf, iat, a missing sub, garbage and an oversized token; these are the rest.

const RUNS = 300
const INVALID = { status: 401, text: '{"detail":"Could not validate credentials"}', challenge: 'Bearer' }

let mock: MockServer
let teamId: string
const secret = new TextEncoder().encode(DEVELOPMENT_JWT_SECRET)
const claims = () => ({
  sub: 'user-1',
  team_id: teamId,
  permissions: ['persona:read', 'policy:read'],
  is_super_admin: true,
  iat: 1_767_225_600,
  exp: 4_102_444_800,
})
const segment = (value: unknown) => base64url.encode(typeof value === 'string' ? value : JSON.stringify(value))

// Where /usr/bin/python3 has PyJWT, every case is also put to PyJWT: it must judge it the same way.
const unavailable = pyjwtUnavailable()
if (unavailable) console.warn(`jwt.test: cases not checked against PyJWT: ${unavailable}`)
let oracle: PyJwtOracle | undefined

beforeAll(async () => {
  mock = await createMockServer({ seed: 38, personasPerTeam: 3 })
  teamId = mock.fixtures.teams[0]!.id
  if (!unavailable) oracle = new PyJwtOracle()
})
afterAll(async () => {
  mock.close()
  await oracle?.close()
})

/** `urlsafe_b64decode` reads `-` as `+` and `_` as `/`. */
const SAME_DIGIT = new Set(['-+', '+-', '_/', '/_'])

/** PyJWT's verdict (accepted or not) where it can be asked, else the one the case expects. */
const pyjwtAccepts = async (token: string, expected: boolean) =>
  oracle ? (await oracle.verdict(token, DEVELOPMENT_JWT_SECRET)) === 'accepted' : expected

async function answer(token: string) {
  const res = await readAnswer(
    await fetch(mock.url('/v1/personas/?limit=1'), { headers: { authorization: `Bearer ${token}` } }),
  )
  return {
    status: res.status,
    text: res.status === 200 ? 'ok' : res.text,
    challenge: res.headers.get('www-authenticate'),
  }
}

/** A token with this header and payload, signed HS256 with the right secret (so only the header or payload is wrong). */
const signedRaw = async (header: unknown, payload: unknown) => {
  const input = `${segment(header)}.${segment(payload)}`
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return `${input}.${base64url.encode(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input))))}`
}

it('accepts the control token these cases are built from', async () => {
  expect(
    await answer(await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)),
  ).toEqual({ status: 200, text: 'ok', challenge: null })
  expect(await answer(await signedRaw({ alg: 'HS256', typ: 'JWT' }, claims()))).toEqual({
    status: 200,
    text: 'ok',
    challenge: null,
  })
})

it.each([
  [
    'RS256 with a real RSA key',
    async () =>
      new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign((await generateKeyPair('RS256')).privateKey),
  ],
  [
    'PS256 with a real RSA key',
    async () =>
      new SignJWT(claims()).setProtectedHeader({ alg: 'PS256' }).sign((await generateKeyPair('PS256')).privateKey),
  ],
  [
    'ES256 with a real EC key',
    async () =>
      new SignJWT(claims()).setProtectedHeader({ alg: 'ES256' }).sign((await generateKeyPair('ES256')).privateKey),
  ],
  [
    'EdDSA with a real Ed25519 key',
    async () =>
      new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA' }).sign((await generateKeyPair('EdDSA')).privateKey),
  ],
  [
    'RS256 carrying its own public key (embedded jwk)',
    async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
      return new SignJWT(claims())
        .setProtectedHeader({ alg: 'RS256', jwk: await exportJWK(publicKey) })
        .sign(privateKey)
    },
  ],
  [
    'HS256 keyed with an RSA public key (algorithm confusion)',
    async () => {
      const { publicKey } = await generateKeyPair('RS256', { extractable: true })
      return new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(await exportSPKI(publicKey)))
    },
  ],
  ['HS384 with the right secret', async () => new SignJWT(claims()).setProtectedHeader({ alg: 'HS384' }).sign(secret)],
  [
    'HS256 with a random secret',
    async () =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256' })
        .sign(await generateSecret('HS256', { extractable: true })),
  ],
  [
    'alg "None" with the signature kept',
    async () => {
      const [, payload, signature] = (await signedRaw({ alg: 'HS256' }, claims())).split('.')
      return `${segment({ alg: 'None' })}.${payload}.${signature}`
    },
  ],
  ['alg "NONE" and no signature', async () => `${segment({ alg: 'NONE', typ: 'JWT' })}.${segment(claims())}.`],
  ['no alg at all', async () => signedRaw({ typ: 'JWT' }, claims())],
  [
    'the signature stripped',
    async () => `${(await signedRaw({ alg: 'HS256' }, claims())).split('.').slice(0, 2).join('.')}.`,
  ],
  [
    'an encrypted token (JWE) keyed with the secret',
    async () =>
      new CompactEncrypt(new TextEncoder().encode(JSON.stringify(claims())))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .encrypt(new Uint8Array(32)),
  ],
  ['two segments', async () => `${segment({ alg: 'HS256' })}.${segment(claims())}`],
  ['four segments', async () => `${await signedRaw({ alg: 'HS256' }, claims())}.extra`],
  ['empty segments', async () => '..'],
  ['a header that is not JSON', async () => signedRaw('not json', claims())],
  ['a payload that is not JSON', async () => signedRaw({ alg: 'HS256' }, 'not json')],
  ['a payload that is a JSON array', async () => signedRaw({ alg: 'HS256' }, [claims()])],
  [
    'a payload that is a JSON string',
    async () => signedRaw({ alg: 'HS256' }, JSON.stringify(JSON.stringify(claims()))),
  ],
  ['sub a number', async () => signedRaw({ alg: 'HS256' }, { ...claims(), sub: 42 })],
  ['sub empty', async () => signedRaw({ alg: 'HS256' }, { ...claims(), sub: '' })],
  ['sub null', async () => signedRaw({ alg: 'HS256' }, { ...claims(), sub: null })],
  [
    'exp a string that is not an integer',
    async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: '4102444800.5' }),
  ],
  ['nbf a string that is not a number', async () => signedRaw({ alg: 'HS256' }, { ...claims(), nbf: 'soon' })],
  [
    'iat a numeric string (PyJWT compares it with now: TypeError)',
    async () => signedRaw({ alg: 'HS256' }, { ...claims(), iat: '0' }),
  ],
  ['exp null (int(None): TypeError)', async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: null })],
  ['an audience the server does not expect', async () => signedRaw({ alg: 'HS256' }, { ...claims(), aud: 'other' })],
  [
    'exp in the past by one second',
    async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: Math.floor(Date.now() / 1000) - 1 }),
  ],
  [
    'the payload in standard base64 with padding (the signed bytes change)',
    async () => {
      const [header, payload, signature] = (await signedRaw({ alg: 'HS256' }, claims())).split('.')
      return `${header}.${payload}=.${signature}`
    },
  ],
  ['whitespace inside', async () => (await signedRaw({ alg: 'HS256' }, claims())).replace('.', ' .')],
  [
    'a space inside the signature (skipped: the signature is then one base64 digit short)',
    async () => {
      const token = await signedRaw({ alg: 'HS256' }, claims())
      return `${token.slice(0, -10)} ${token.slice(-10)}`
    },
  ],
])('refuses %s with 401 Could not validate credentials, as PyJWT does', async (_, token) => {
  const refused = await token()
  expect(await answer(refused)).toEqual(INVALID)
  expect(await pyjwtAccepts(refused, false)).toBe(false)
})

// PyJWT's lenient base64 (binascii skips what is not base64) and its int() of the time claims let these through.
it.each([
  ['exp a numeric string', async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: '4102444800' })],
  [
    'exp a numeric string with spaces and underscores',
    async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: ' 4_102_444_800 ' }),
  ],
  ['exp a float', async () => signedRaw({ alg: 'HS256' }, { ...claims(), exp: 4102444800.5 })],
  ['nbf a numeric string', async () => signedRaw({ alg: 'HS256' }, { ...claims(), nbf: '0' })],
  ['nbf and iat floats', async () => signedRaw({ alg: 'HS256' }, { ...claims(), nbf: 0.9, iat: 1.5 })],
  ['an empty aud', async () => signedRaw({ alg: 'HS256' }, { ...claims(), aud: '' })],
  [
    'the signature in standard base64 with padding',
    async () => {
      const [header, payload, signature] = (await signedRaw({ alg: 'HS256' }, claims())).split('.')
      return `${header}.${payload}.${signature!.replace(/-/g, '+').replace(/_/g, '/')}=`
    },
  ],
  ['non-ASCII bytes (Latin-1) after the signature', async () => `${await signedRaw({ alg: 'HS256' }, claims())}\u00e9`],
  ['padding after the signature', async () => `${await signedRaw({ alg: 'HS256' }, claims())}==`],
])('accepts %s, as PyJWT does', async (_, token) => {
  const accepted = await token()
  expect(await answer(accepted)).toEqual({ status: 200, text: 'ok', challenge: null })
  expect(await pyjwtAccepts(accepted, true)).toBe(true)
})

it(`accepts a valid token of up to ${MAX_TOKEN_LENGTH} characters and refuses the next size up`, async () => {
  // Base64 grows in steps, so find the longest token at or under the limit and the shortest over it.
  const padded = (pad: number) => signedRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims(), pad: 'x'.repeat(pad) })
  let pad = Math.floor((MAX_TOKEN_LENGTH - (await padded(0)).length) * 0.75) - 8
  while ((await padded(pad + 1)).length <= MAX_TOKEN_LENGTH) pad++
  const [atLimit, over] = [await padded(pad), await padded(pad + 1)]
  expect(atLimit.length).toBeGreaterThan(MAX_TOKEN_LENGTH - 4)
  expect((await answer(atLimit)).status).toBe(200)
  expect(over.length).toBeGreaterThan(MAX_TOKEN_LENGTH)
  expect(await answer(over)).toEqual(INVALID)
})

it(
  'judges every one-character change to a valid token, in any segment, as PyJWT does',
  async () => {
    const token = await signedRaw({ alg: 'HS256', typ: 'JWT' }, claims())
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ '
    const signatureStart = token.lastIndexOf('.') + 1
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), async (at, char) => {
        // The last character of a segment may carry unused bits: changing only those leaves the
        // same bytes, so the same (valid) token.
        const ends = new Set([token.indexOf('.') - 1, token.lastIndexOf('.') - 1, token.length - 1])
        fc.pre(token[at] !== char && !ends.has(at))
        const changed = token.slice(0, at) + char + token.slice(at + 1)
        // Without PyJWT at hand: only a signature digit in the other base64 alphabet decodes the same.
        const sameDigit = at >= signatureStart && SAME_DIGIT.has(`${token[at]}${char}`)
        const accepted = await pyjwtAccepts(changed, sameDigit)
        expect(await answer(changed)).toEqual(accepted ? { status: 200, text: 'ok', challenge: null } : INVALID)
      }),
      fuzzParameters(RUNS, 7_009),
    )
  },
  timeoutFor(RUNS, 20),
)

it('refuses tokens signed with the development secret once another secret is configured, and accepts its own', async () => {
  const devToken = mock.fixtures.tokens.team_reader
  mock.close()
  mock = await createMockServer({ seed: 38, personasPerTeam: 3, jwtSecret: 'a-custom-secret-of-some-length' })
  expect(await answer(devToken)).toEqual(INVALID)
  expect((await answer(mock.fixtures.tokens.team_reader)).status).toBe(200)
})
