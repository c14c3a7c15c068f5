import { SignJWT, base64url } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DEVELOPMENT_JWT_SECRET } from 'agent-console-mock'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
let teamId: string
const now = () => Math.floor(Date.now() / 1000)
const secret = new TextEncoder().encode(DEVELOPMENT_JWT_SECRET)
const readerClaims = () => ({ sub: 'u-1', team_id: teamId, permissions: ['persona:read'], is_super_admin: false })

beforeAll(async () => {
  mock = await createMockServer({ seed: 2 })
  api = client(mock)
  teamId = mock.fixtures.teams[0]!.id
})
afterAll(() => mock.close())

const NOT_AUTHENTICATED = [401, '{"detail":"Not authenticated"}', 'Bearer']
const INVALID = [401, '{"detail":"Could not validate credentials"}', 'Bearer']

async function answer(authorization: string | undefined) {
  const res = await api.get('/v1/personas/?limit=1', undefined, authorization === undefined ? {} : { authorization })
  return [res.status, res.status === 200 ? 'ok' : res.text, res.headers.get('www-authenticate')]
}

it.each([
  ['no header', undefined],
  ['an empty header', ''],
  ['the scheme alone', 'Bearer'],
  ['the scheme and a space', 'Bearer '],
  ['another scheme', 'Basic dXNlcjpwYXNz'],
  ['a tab instead of a space', 'Bearer\tabc'],
])('answers %s with 401 Not authenticated and a Bearer challenge', async (_, header) => {
  expect(await answer(header)).toEqual(NOT_AUTHENTICATED)
})

it('accepts the scheme in any case, and a minted token', async () => {
  const token = await mock.mintToken(readerClaims())
  expect(await answer(`bearer ${token}`)).toEqual([200, 'ok', null])
  expect(await answer(`BEARER ${token}`)).toEqual([200, 'ok', null])
})

it('does not trim the credentials, as FastAPI before 0.128.1', async () => {
  const token = await mock.mintToken(readerClaims())
  expect(await answer(`Bearer  ${token}`)).toEqual(INVALID)
})

it.each([
  ['garbage', async () => 'not.a.jwt'],
  ['garbage base64', async () => '!!!.@@@.###'],
  [
    'a wrong signature',
    async () =>
      new SignJWT(readerClaims())
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('another secret of enough length!!')),
  ],
  ['HS512', async () => new SignJWT(readerClaims()).setProtectedHeader({ alg: 'HS512' }).sign(secret)],
  [
    'alg none',
    async () =>
      `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(readerClaims()))}.`,
  ],
  [
    'a tampered payload',
    async () => {
      const [head, , signature] = (await mock.mintToken(readerClaims())).split('.')
      return `${head}.${base64url.encode(JSON.stringify({ ...readerClaims(), is_super_admin: true }))}.${signature}`
    },
  ],
  ['an expired token', async () => mock.fixtures.tokens.expired],
  ['exp equal to now', async () => mock.mintToken({ ...readerClaims(), exp: now() })],
  ['nbf in the future', async () => mock.mintToken({ ...readerClaims(), nbf: now() + 600 })],
  ['iat in the future', async () => mock.mintToken({ ...readerClaims(), iat: now() + 600 })],
  [
    'no sub',
    async () =>
      new SignJWT({ team_id: teamId, permissions: ['persona:read'] }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
  ],
  [
    'permissions that are not a list',
    // Signed here: mintToken refuses claims the API would refuse.
    async () =>
      new SignJWT({ ...readerClaims(), permissions: 'persona:read' }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
  ],
  ['an oversized token', async () => mock.mintToken({ ...readerClaims(), padding: 'x'.repeat(200_000) })],
])('refuses %s with 401 Could not validate credentials', async (_, token) => {
  expect(await answer(`Bearer ${await token()}`)).toEqual(INVALID)
})

it('accepts a token without exp, as PyJWT does', async () => {
  expect(await answer(`Bearer ${await mock.mintToken({ ...readerClaims(), exp: null })}`)).toEqual([200, 'ok', null])
})

it('gives super admins every permission and every team', async () => {
  const admin = await mock.mintToken({ sub: 'root', is_super_admin: true, team_id: teamId })
  const other = mock.fixtures.teams[1]!.id
  const res = await api.get(`/v1/personas/?team_id=${other}`, admin)
  expect(res.status).toBe(200)
})

it('authenticates before it validates, and validates before it checks the team', async () => {
  const missing = await api.get('/v1/personas/?limit=0&team_id=x')
  expect(missing.status).toBe(401)
  const other = mock.fixtures.teams[1]!.id
  const invalid = await api.get(`/v1/personas/?limit=0&team_id=${other}`, mock.fixtures.tokens.team_reader)
  expect(invalid.status).toBe(422)
})

it('reads invalid JSON before it authenticates, and refuses the token before validating the body', async () => {
  const path = `/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`
  const invalidJson = await api.post(path, '{"values": [', undefined)
  expect(invalidJson.text).toBe(
    '{"detail":[{"type":"json_invalid","loc":["body",12],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
  )
  const badBody = await api.post(path, { values: 'x' }, undefined)
  expect(badBody.status).toBe(401)
})

it('stops accepting a token the moment it expires, even after it was accepted', async () => {
  // The mock runs on this process's clock. An answer that arrived before `exp` was decided before
  // it, and must accept the token; one that arrived later (a slow machine) proves nothing, so the
  // test tries again with a longer lifetime rather than assume how fast a request is answered.
  let lifetime = 2
  let token: string
  let exp: number
  for (;;) {
    exp = now() + lifetime
    token = await mock.mintToken({ ...readerClaims(), exp })
    const accepted = await answer(`Bearer ${token}`)
    if (Date.now() < exp * 1000) {
      expect(accepted).toEqual([200, 'ok', null])
      break
    }
    lifetime *= 2
  }
  // Any moment after `exp` (later is as good: load only delays the request): refused.
  while (Date.now() < exp * 1000 + 50) await new Promise((resolve) => setTimeout(resolve, exp * 1000 + 50 - Date.now()))
  expect(await answer(`Bearer ${token}`)).toEqual(INVALID)
})

it('refuses to mint a token the API would refuse, naming the claim, and types `sub` as required', async () => {
  const { sub: _sub, ...withoutSub } = readerClaims()
  // @ts-expect-error `sub` is required: a token without it is refused by the API with 401
  await expect(mock.mintToken(withoutSub)).rejects.toThrow(
    /^mintToken: these claims make a token the API refuses: sub: /,
  )
  await expect(mock.mintToken({ ...readerClaims(), permissions: 'persona:read' as never })).rejects.toThrow(
    /permissions: /,
  )
  expect((await answer(`Bearer ${await mock.mintToken({ ...readerClaims(), extra: 1 })}`))[1]).toBe('ok')
})

it.each([
  ['an empty jwtSecret', { jwtSecret: '' }, 'jwtSecret must be a non-empty string'],
  ['an unknown option', { sed: 7 } as never, 'createMockServer: unknown option "sed"; the options are seed, '],
  ['onUnhandledRequest "nope"', { onUnhandledRequest: 'nope' as never }, "onUnhandledRequest must be one of 'error'"],
  ['maxBodyBytes 0', { maxBodyBytes: 0 }, 'maxBodyBytes must be an integer from 1 to 1073741824 (bytes), got 0.'],
  ['maxBodyBytes 1.5', { maxBodyBytes: 1.5 }, 'maxBodyBytes must be an integer'],
  ['maxBodyBytes "abc"', { maxBodyBytes: 'abc' as never }, 'maxBodyBytes must be an integer'],
])('refuses %s at createMockServer, naming the option', async (_, options, message) => {
  mock.close()
  try {
    await expect(createMockServer({ seed: 2, ...options })).rejects.toThrow(message)
  } finally {
    mock = await createMockServer({ seed: 2 })
    api = client(mock)
  }
})

it('mints what the API takes: time claims as strings of integers, and refuses an audience, which it never takes', async () => {
  const later = String(now() + 3600)
  expect(await answer(`Bearer ${await mock.mintToken({ ...readerClaims(), exp: later, nbf: '1' })}`)).toEqual([
    200,
    'ok',
    null,
  ])
  await expect(mock.mintToken({ ...readerClaims(), aud: 'x' })).rejects.toThrow(/aud: the API refuses every token/)
})
