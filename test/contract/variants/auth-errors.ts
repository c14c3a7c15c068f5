import { HttpResponse } from 'msw'
import { BULK, forward, override, PERSONAS, realAnswer, rewrite, RULES } from '../support/variant.js'
import { bearer, type BrokenVariant } from './helpers.js'

/** Broken variants for authentication and errors. */
export const AUTH_AND_ERRORS: BrokenVariant[] = [
  // auth
  {
    bug: 'no token: the personas are listed anyway',
    caughtBy: 'auth.no-token',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) =>
        request.headers.has('authorization')
          ? undefined
          : forward(request, {
              headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.team_reader)),
            }),
      ),
    ],
  },
  {
    bug: 'token signature not verified',
    caughtBy: 'auth.malformed-token',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) => {
        const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
        const signedAs = Object.values(fixtures.tokens).find(
          (known) =>
            known !== token && known.split('.').slice(0, 2).join('.') === token.split('.').slice(0, 2).join('.'),
        )
        return signedAs
          ? forward(request, { headers: (headers) => headers.set('authorization', bearer(signedAs)) })
          : undefined
      }),
    ],
  },
  {
    // A JWT library left to read the algorithm from the token's own header.
    bug: 'an unsigned token (alg none) accepted',
    caughtBy: 'auth.malformed-token',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) => {
        const [header, payload] = (request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '').split('.')
        const unsigned = decoded(header)?.alg === 'none'
        const signedAs = Object.values(fixtures.tokens).find((known) => known.split('.')[1] === payload)
        return unsigned && signedAs
          ? forward(request, { headers: (headers) => headers.set('authorization', bearer(signedAs)) })
          : undefined
      }),
    ],
  },
  {
    // Taking the valid token under another scheme word is only more lenient ("How the JWT is sent (header name,
    // scheme): not shown"): what breaks is letting in a Basic credential that is no valid token.
    bug: 'any Basic credential accepted as the team reader',
    caughtBy: 'auth.wrong-scheme',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) =>
        request.headers.get('authorization')?.startsWith('Basic ')
          ? forward(request, {
              headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.team_reader)),
            })
          : undefined,
      ),
    ],
  },
  {
    bug: 'permissions not checked',
    caughtBy: 'auth.no-permission',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) =>
        request.headers.get('authorization') === bearer(fixtures.tokens.no_permissions)
          ? forward(request, {
              headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.team_reader)),
            })
          : undefined,
      ),
    ],
  },
  {
    bug: 'team_id not checked against the token',
    caughtBy: 'auth.other-team',
    handlers: (fixtures) => [
      override('get', PERSONAS, (request) => {
        const asksATeam =
          new URL(request.url).searchParams.has('team_id') &&
          request.headers.get('authorization') === bearer(fixtures.tokens.team_reader)
        return asksATeam
          ? forward(request, {
              headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)),
            })
          : undefined
      }),
    ],
  },
  {
    bug: "a refusal of another team's policy that carries its rules",
    caughtBy: 'auth.other-team-policy',
    handlers: (fixtures) => [
      override('get', RULES, async (request) => {
        const other = fixtures.policies.find(
          (policy) => policy.team_id !== fixtures.teams[0]!.id && new URL(request.url).pathname.includes(policy.id),
        )
        if (!other) return undefined
        const { body } = await realAnswer(request, {
          headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)),
        })
        return HttpResponse.json({ detail: 'Policy not found', ...body }, { status: 404 })
      }),
    ],
  },
  {
    bug: 'bulk add open to any signed-in user',
    caughtBy: 'auth.bulk-requires-admin',
    handlers: (fixtures) => [
      override('post', BULK, (request) =>
        request.headers.has('authorization')
          ? forward(request, {
              headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)),
            })
          : undefined,
      ),
    ],
  },
  // errors
  {
    bug: 'an unknown policy answers 200 with no rules',
    caughtBy: 'errors.unknown-policy',
    handlers: () => [
      rewrite(
        'get',
        RULES,
        (body, _request, status) => (status === 404 ? HttpResponse.json({ results: [], total: 0 }) : body),
        { all: true },
      ),
    ],
  },
  {
    bug: 'an unknown dimension answers 500',
    caughtBy: 'errors.unknown-dimension',
    alsoFails: ['errors.server-error'],
    handlers: () => [
      override('post', BULK, async (request) => {
        const response = await forward(request)
        return response.status === 404
          ? new HttpResponse('Internal Server Error', {
              status: 500,
              headers: { 'content-type': 'text/plain; charset=utf-8' },
            })
          : response
      }),
    ],
  },
]

/** A base64url JSON segment of a JWT, decoded; undefined when it is not one. */
function decoded(segment: string | undefined): { alg?: unknown } | undefined {
  try {
    return JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}
