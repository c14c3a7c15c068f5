import { createHash } from 'node:crypto'
import { mintToken } from 'agent-console-mock'
import type { AlignedRequest, ServerSide } from './aligned-requests.js'
import type { RunningFastApi } from './server.js'

/** How aligned-mock.test.ts talks to both servers: their ids and tokens, one request, an answer to compare. */

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

export interface Answer {
  status: number
  headers: Record<string, string | null>
  location: string | null
  body: string
}

export async function send(base: string, side: ServerSide, request: AlignedRequest): Promise<Answer> {
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
export const brief = (answer: Answer) =>
  answer.body.length <= 600
    ? answer
    : { ...answer, body: `${answer.body.slice(0, 300)}… ${answer.body.length} bytes, sha1 ${sha1(answer.body)}` }
const sha1 = (text: string) => createHash('sha1').update(text, 'latin1').digest('hex')

/** The reference app's ids, as its start-up line gives them. */
export async function referenceSide(server: RunningFastApi): Promise<ServerSide> {
  const { teams, policies, dimensions } = server.ids
  const ids = {
    team: teams.primary,
    otherTeam: teams.other,
    policy: policies.primary,
    otherTeamPolicy: policies.other_team,
    dimension: dimensions.primary,
  }
  return { ids, tokens: await tokensFor(ids, server.secret) }
}

interface MockFixtures {
  teams: Array<{ id: string }>
  policies: Array<{ id: string; team_id: string }>
  dimensions: Array<{ id: string }>
}

/** The mock's ids, from its control API's fixtures. */
export async function mockSide(url: string, secret: string): Promise<ServerSide> {
  const fixtures = (await (await fetch(`${url}/__mock/fixtures`)).json()) as MockFixtures
  const [team, otherTeam] = fixtures.teams.map(({ id }) => id) as [string, string]
  const ids = {
    team,
    otherTeam,
    policy: fixtures.policies.find((policy) => policy.team_id === team)!.id,
    otherTeamPolicy: fixtures.policies.find((policy) => policy.team_id !== team)!.id,
    dimension: fixtures.dimensions[0]!.id,
  }
  return { ids, tokens: await tokensFor(ids, secret) }
}
