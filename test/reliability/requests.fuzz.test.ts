import fc from 'fast-check'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { readAnswer } from '../support/answer.js'
import { expectationFor, problemsWith } from './support/answers.js'
import { apiRequest, describe, type FuzzRequest } from './support/arbitraries.js'
import { fuzzParameters, HANG_GUARD_MS, tally, timeoutFor, withinMs } from './support/fuzz.js'

const RUNS = 600
// Small, so that the generated bodies reach the limit too.
const MAX_BODY_BYTES = 2048

let mock: MockServer
let tokens: string[]

beforeAll(async () => {
  mock = await createMockServer({ seed: 31, personasPerTeam: 30, maxBodyBytes: MAX_BODY_BYTES })
  const { teams } = mock.fixtures
  // Super admins thrice more: only they get through to the bulk add's validation and write.
  tokens = [
    ...Object.values(mock.fixtures.tokens),
    ...Array.from({ length: 3 }, () => mock.fixtures.tokens.super_admin),
    await mock.mintToken({ sub: 'other-team', team_id: teams[1]!.id, permissions: ['persona:read', 'policy:read'] }),
    await mock.mintToken({ sub: 'scoped-admin', team_id: teams[2]!.id, is_super_admin: true }),
    await mock.mintToken({ sub: 'no-team', permissions: ['persona:read', 'policy:read'] }),
  ]
})
afterAll(() => mock.close())

const ids = () => ({
  teams: mock.fixtures.teams.map((t) => t.id),
  dimensions: mock.fixtures.dimensions.map((d) => d.id),
  policies: mock.fixtures.policies.map((p) => p.id),
})

async function send(request: FuzzRequest) {
  const res = await fetch(mock.baseUrl + request.target, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  })
  return readAnswer(res)
}

it(
  'answers any path, query, header set and body with a documented status and body, never hanging, with nothing logged, adding values only on a 201',
  async () => {
    const outcomes = tally('in-process fuzz: answers by route and status')
    // The handlers log an exception they turn into a 500 (and msw logs its own): there must be none.
    const logged = vi.spyOn(console, 'error')
    try {
      await fc.assert(
        // Paths with escapes decodeURIComponent refuses are left to the test below (and to the HTTP fuzz).
        fc.asyncProperty(apiRequest(ids(), tokens, { utf8PathsOnly: true }), async (request) => {
          const stored = mock.world.values.all().length
          const answer = await withinMs(HANG_GUARD_MS, send(request), describe(request))
          const expectation = expectationFor(request.method, new URL(mock.baseUrl + request.target).pathname)
          outcomes.add(`${'operation' in expectation ? expectation.operation : 'routing'} ${answer.status}`)
          // The core reads the body before anything else, in every runtime: too large is too large, whatever the path.
          if (request.body !== undefined && Buffer.byteLength(request.body) > MAX_BODY_BYTES) {
            expect([answer.status, answer.text], describe(request)).toEqual([
              413,
              '{"detail":"Request body too large"}',
            ])
            return
          }
          expect(problemsWith(expectation, request.method, answer), describe(request)).toEqual([])
          const added = answer.status === 201 ? (answer.json as unknown[]).length : 0
          expect(
            mock.world.values.all().length - stored,
            'all or nothing: only a 201 adds, and exactly what it answers',
          ).toBe(added)
        }),
        fuzzParameters(RUNS, 7_001),
      )
      expect(logged).not.toHaveBeenCalled()
    } finally {
      logged.mockRestore()
    }
    outcomes.print()
  },
  timeoutFor(RUNS, 40),
)

// msw's own path patterns decode with decodeURIComponent, which throws on `%FF` or `%zz`: the handlers
// match with predicates over the raw path instead (handlers/match.ts), so these reach FastAPI's routing.
it('answers a path with escapes decodeURIComponent refuses as FastAPI does (404, or the operation with U+FFFD in the parameter)', async () => {
  const token = { authorization: `Bearer ${mock.fixtures.tokens.super_admin}` }
  for (const path of ['/v1/%FF', '/v1/%zz']) {
    const unknown = await fetch(mock.url(path), { headers: token })
    expect([unknown.status, await unknown.text()]).toEqual([404, '{"detail":"Not Found"}'])
  }
  const rules = await readAnswer(await fetch(mock.url('/v1/policies/%C3/rules'), { headers: token }))
  expect([rules.status, rules.json?.detail?.[0]?.input]).toEqual([422, '\ufffd'])
})

it('keeps answering afterwards', async () => {
  const res = await fetch(mock.url('/v1/personas/?limit=1'), {
    headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
  })
  expect([res.status, ((await res.json()) as { total: number }).total]).toEqual([200, 30])
})
