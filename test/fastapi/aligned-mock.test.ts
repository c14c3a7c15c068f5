import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintToken, type ProfileOptions } from 'agent-console-mock'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import { ALIGNED_REQUESTS, type AlignedRequest, type ServerSide } from './aligned-requests.js'
import { compareOpenApi } from './aligned-openapi.js'
import { DEFAULT_SECRET, fastApiUnavailable, startFastApi, type RunningFastApi } from './server.js'

/**
 * The mock with a profile that matches a variant of the reference FastAPI 0.92 + pydantic 1.10 app answers
 * the same requests with the same bytes: status, the headers that matter, body. The profiles are written by
 * hand here (the verifier's automatic profile is tested elsewhere).
 */
const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/aligned-mock skipped: ${unavailable}`)

interface Alignment {
  variants: string[]
  profile: ProfileOptions
  /** Requests only this variant makes data-independent. */
  extra?: AlignedRequest[]
}

const duplicates: AlignedRequest = {
  name: 'bulk: a value repeated in the request is rejected',
  method: 'POST',
  path: (ids) => `/v1/demographics/${ids.dimension}/values/bulk`,
  auth: 'admin',
  body: JSON.stringify({ values: [{ value: 'zz-aligned' }, { value: 'zz-aligned' }] }),
}

const ALIGNMENTS: Alignment[] = [
  { variants: [], profile: { pydantic: '1', missingCredentialsStatus: 403 } },
  { variants: ['legit:missing-credentials-401', 'legit:intents-enum'], profile: { pydantic: '1', intents: 'enum' } },
  {
    variants: ['legit:no-length-bounds', 'legit:bulk-200', 'legit:rules-page-size-skip'],
    profile: {
      pydantic: '1',
      missingCredentialsStatus: 403,
      bounds: { bulkMaxItems: null, valueMaxLength: null },
      bulkAddStatus: 200,
      rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 },
    },
  },
  {
    variants: ['legit:declared-errors', 'legit:bulk-reject-duplicates'],
    profile: {
      pydantic: '1',
      missingCredentialsStatus: 403,
      bulkDuplicates: 'reject',
      declaredErrors: {
        list_personas: [400, 401, 403],
        bulk_add_values: [401, 403, 404, 409],
        list_policy_rules: [401, 403, 404],
      },
    },
    extra: [duplicates],
  },
]

/** The headers FastAPI's answers differ by (uvicorn's `date` and `server` are not the app's). */
const HEADERS = ['content-type', 'content-length', 'www-authenticate', 'allow'] as const

async function tokensFor(ids: ServerSide['ids'], secret: string): Promise<ServerSide['tokens']> {
  const read = ['persona:read', 'policy:read']
  const reader = { sub: '6c1a3f0e-8d2b-4e5f-9a7c-1b2d3e4f5a6b', team_id: ids.team }
  return {
    reader: await mintToken({ ...reader, permissions: read }, secret),
    personaOnly: await mintToken({ ...reader, permissions: ['persona:read'] }, secret),
    admin: await mintToken({ sub: '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d', is_super_admin: true }, secret),
    noPermission: await mintToken({ ...reader, permissions: [] }, secret),
    expired: await mintToken({ ...reader, permissions: read, iat: 1_600_000_000, exp: 1_600_003_600 }, secret),
    badSignature: await mintToken({ ...reader, permissions: read }, `${secret}-not`),
  }
}

interface Answer {
  status: number
  headers: Record<string, string | null>
  location: string | null
  body: string
}

async function send(base: string, side: ServerSide, request: AlignedRequest): Promise<Answer> {
  const headers: Record<string, string> = {}
  const { auth } = request
  if (auth) headers['authorization'] = typeof auth === 'string' ? `Bearer ${side.tokens[auth]}` : auth.header
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json'
  const res = await fetch(base + request.path(side.ids), {
    method: request.method ?? 'GET',
    headers,
    body: request.body,
    redirect: 'manual',
  })
  const location = res.headers.get('location')
  return {
    status: res.status,
    headers: Object.fromEntries(HEADERS.map((name) => [name, res.headers.get(name)])),
    // The host differs (two servers): the path and query are what the app wrote.
    location: location === null ? null : location.replace(/^https?:\/\/[^/]+/, ''),
    body: Buffer.from(await res.arrayBuffer()).toString('latin1'),
  }
}

/** An answer as a failure shows it: a long body is cut, its length and digest still tell it apart. */
const brief = (answer: Answer) =>
  answer.body.length <= 600
    ? answer
    : { ...answer, body: `${answer.body.slice(0, 300)}… ${answer.body.length} bytes, sha1 ${sha1(answer.body)}` }
const sha1 = (text: string) => createHash('sha1').update(text, 'latin1').digest('hex')

describe.skipIf(unavailable !== undefined).each(ALIGNMENTS)(
  'the mock aligned with FastAPI 0.92 [$variants]',
  (alignment) => {
    let reference: RunningFastApi
    let mock: RunningServer
    const sides = {} as { reference: ServerSide; mock: ServerSide }

    beforeAll(async () => {
      ;[reference, mock] = await Promise.all([
        startFastApi({ variants: alignment.variants, secret: DEFAULT_SECRET }),
        startServer({
          port: 0,
          seed: 13,
          jwtSecret: DEFAULT_SECRET,
          profile: alignment.profile,
          cors: false,
          logger: quiet,
        }),
      ])
      const { teams, policies, dimensions } = reference.ids
      const referenceIds = {
        team: teams.primary,
        otherTeam: teams.other,
        policy: policies.primary,
        otherTeamPolicy: policies.other_team,
        dimension: dimensions.primary,
      }
      const fixtures = (await (await fetch(`${mock.url}/__mock/fixtures`)).json()) as MockFixtures
      const [team, otherTeam] = fixtures.teams.map(({ id }) => id) as [string, string]
      const mockIds = {
        team,
        otherTeam,
        policy: fixtures.policies.find((policy) => policy.team_id === team)!.id,
        otherTeamPolicy: fixtures.policies.find((policy) => policy.team_id !== team)!.id,
        dimension: fixtures.dimensions[0]!.id,
      }
      sides.reference = { ids: referenceIds, tokens: await tokensFor(referenceIds, DEFAULT_SECRET) }
      sides.mock = { ids: mockIds, tokens: await tokensFor(mockIds, DEFAULT_SECRET) }
    }, 60_000)

    afterAll(async () => {
      await Promise.all([reference?.stop(), mock?.close()])
    })

    const requests = [...ALIGNED_REQUESTS, ...(alignment.extra ?? [])]
    it(`answers ${requests.length} data-independent requests byte for byte as the reference app`, async () => {
      for (const request of requests) {
        const [expected, got] = [
          await send(reference.url, sides.reference, request),
          await send(mock.url, sides.mock, request),
        ]
        expect.soft(brief(got), request.name).toEqual(brief(expected))
      }
    })

    it("serves the reference app's /openapi.json (paths byte for byte, every shared component)", async () => {
      const [expected, got] = await Promise.all(
        [reference.url, mock.url].map(async (url) => (await fetch(`${url}/openapi.json`)).text()),
      )
      compareOpenApi(expected!, got!, alignment.profile)
    })
  },
)

interface MockFixtures {
  teams: Array<{ id: string }>
  policies: Array<{ id: string; team_id: string }>
  dimensions: Array<{ id: string }>
}

/** No line per request; a bug of the mock still shows. */
const quiet = { error: (message: string, error?: unknown) => console.error(message, error) }
