import { describe } from 'vitest'
import { expect, test } from 'agent-console-mock/vitest'

/** What a `fetch` in the page gets: status, the headers that matter, the body's bytes as text. */
async function get(path: string, token?: string) {
  const response = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    authenticate: response.headers.get('www-authenticate'),
    body: await response.text(),
  }
}

// Tests of a file run in order: the second sees the first's overrides only if they leaked.
describe('typed overrides in the page', () => {
  test('answer a status and body, an error shape and a function of the request, on the wire', async ({ mock }) => {
    const { team_reader } = mock.fixtures.tokens
    const policy = mock.fixtures.policies[0]?.id
    mock.override('list_policy_rules', { status: 200, body: { results: [], total: 0 } })
    expect(await get(`/v1/policies/${policy}/rules`, team_reader)).toEqual({
      status: 200,
      type: 'application/json',
      authenticate: null,
      body: '{"results":[],"total":0}',
    })

    mock.override('list_policy_rules', { error: 'not_found' })
    expect(await get(`/v1/policies/${policy}/rules`, team_reader)).toMatchObject({
      status: 404,
      body: '{"detail":"Policy not found"}',
    })
    mock.override('list_personas', { error: 'not_authenticated' })
    expect(await get('/v1/personas/', team_reader)).toMatchObject({
      status: 401,
      authenticate: 'Bearer',
      body: '{"detail":"Not authenticated"}',
    })

    mock.override('list_personas', (req) =>
      req.query.search === 'ada'
        ? { body: { results: [], total: req.query.offset + 1 } }
        : { error: 'forbidden', detail: `Team ${req.claims.team_id} may not search` },
    )
    expect(await get('/v1/personas/?search=ada&offset=4', team_reader)).toMatchObject({
      status: 200,
      body: '{"results":[],"total":5}',
    })
    expect(await get('/v1/personas/?search=bob', team_reader)).toMatchObject({
      status: 403,
      body: `{"detail":"Team ${mock.fixtures.teams[0]?.id} may not search"}`,
    })
    // The override runs after authentication and validation: those answers stay the API's.
    expect((await get('/v1/personas/?limit=0', team_reader)).status).toBe(422)
    expect((await get('/v1/personas/')).status).toBe(401)
  })

  test('are undone in the next test', async ({ mock }) => {
    const { team_reader } = mock.fixtures.tokens
    expect(await get('/v1/personas/?search=bob', team_reader)).toMatchObject({ status: 200 })
    const personas = await get('/v1/personas/', team_reader)
    const team = mock.fixtures.teams[0]?.id
    expect(JSON.parse(personas.body).total).toBe(mock.world.personas.all().filter((p) => p.team_id === team).length)
    expect(JSON.parse(personas.body).total).toBeGreaterThan(0)
    expect((await get(`/v1/policies/${mock.fixtures.policies[0]?.id}/rules`, team_reader)).status).toBe(200)
  })
})
