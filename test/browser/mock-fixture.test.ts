import { http, HttpResponse } from 'msw'
import { describe } from 'vitest'
import { expect, test } from 'agent-console-mock/vitest'

/** GET /v1/personas/ of the fixtures' first team, as the page would ask. */
const listPersonas = (token: string, query = '') =>
  fetch(`/v1/personas/${query}`, { headers: { authorization: `Bearer ${token}` } })

test('the mock answers the page with the seeded world', async ({ mock }) => {
  const response = await listPersonas(mock.fixtures.tokens.team_reader, '?limit=5')
  expect(response.status).toBe(200)
  const body = await response.json()
  const team = mock.fixtures.teams[0]?.id
  expect(body.total).toBe(mock.world.personas.all().filter((persona) => persona.team_id === team).length)
  expect(body.results).toHaveLength(5)
})

test('the fixtures tokens are checked: no token, no permission', async ({ mock }) => {
  expect((await fetch('/v1/personas/')).status).toBe(401)
  expect((await listPersonas(mock.fixtures.tokens.no_permissions)).status).toBe(403)
  const admin = await mock.mintToken({ sub: 'x', is_super_admin: true })
  expect((await listPersonas(admin, `?team_id=${mock.fixtures.teams[1]?.id}`)).status).toBe(200)
})

// Tests of a file run in order: the second sees what the first wrote only if worlds leaked.
describe('a world per test', () => {
  let written = ''

  test('a persona created in one test', async ({ mock }) => {
    const persona = await mock.create.persona({ name: 'Only in this test' })
    written = persona.id
    const body = await (
      await listPersonas(mock.fixtures.tokens.super_admin, `?team_id=${persona.team_id}&limit=100&search=Only`)
    ).json()
    expect(body.results.map((result: { id: string }) => result.id)).toContain(written)
  })

  test('is gone in the next', async ({ mock }) => {
    expect(written).not.toBe('')
    expect(mock.world.personas.all().some((persona) => persona.id === written)).toBe(false)
    const team = mock.fixtures.teams[0]?.id
    const body = await (
      await listPersonas(mock.fixtures.tokens.super_admin, `?team_id=${team}&limit=100&search=Only`)
    ).json()
    expect(body.results.map((result: { id: string }) => result.id)).not.toContain(written)
  })
})

describe('handlers added with mock.use', () => {
  test('answer in their test', async ({ mock }) => {
    mock.use(http.get('*/v1/personas/', () => HttpResponse.json({ results: [], total: 0 })))
    mock.override('list_policy_rules', { error: 'not_found' })
    expect(await (await listPersonas(mock.fixtures.tokens.team_reader)).json()).toEqual({ results: [], total: 0 })
  })

  test('are undone after it', async ({ mock }) => {
    const body = await (await listPersonas(mock.fixtures.tokens.team_reader)).json()
    expect(body.total).toBeGreaterThan(0)
    const policy = mock.fixtures.policies[0]
    const rules = await fetch(`/v1/policies/${policy?.id}/rules`, {
      headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
    })
    expect(rules.status).toBe(200)
  })
})

describe('options per suite', () => {
  test.override({ mockOptions: { seed: 7, personasPerTeam: 3 } })

  test('seed and size', async ({ mock }) => {
    expect(mock.fixtures.seed).toBe(7)
    const body = await (await listPersonas(mock.fixtures.tokens.team_reader)).json()
    expect(body.total).toBe(3)
  })
})

test('snapshot, restore and reset', async ({ mock }) => {
  const before = mock.world.personas.all().length
  await mock.snapshot('start')
  await mock.create.persona({ name: 'Later' })
  expect(mock.world.personas.all()).toHaveLength(before + 1)
  await mock.restore('start')
  expect(mock.world.personas.all()).toHaveLength(before)
  await mock.create.persona({ name: 'Later' })
  await mock.reset()
  expect(mock.world.personas.all()).toHaveLength(before)
})

test('a scenario through useScenario', async ({ mock }) => {
  await mock.useScenario('empty-team')
  const body = await (await listPersonas(mock.fixtures.tokens.team_reader)).json()
  expect(body).toEqual({ results: [], total: 0 })
})

test("the control API answers from the test's world", async ({ mock }) => {
  await mock.create.persona({ name: 'Seen by the control API' })
  const response = await fetch('/__mock/state')
  expect(response.status).toBe(200)
  expect(await response.text()).toContain('Seen by the control API')
})

test("the page is controlled by msw's worker script, served by mockServiceWorker()", async () => {
  expect(navigator.serviceWorker.controller?.scriptURL).toBe(new URL('/mockServiceWorker.js', location.href).href)
  const script = await (await fetch('/mockServiceWorker.js')).text()
  expect(script).toContain('INTEGRITY_CHECKSUM')
})
