/**
 * Recorded contracts in the browser: what the page asked through msw's worker is what the test's mock
 * records, in code (`mock.contract()`) and over the control API the worker answers (`/__mock/contract`).
 */
import { expect, test } from 'agent-console-mock/vitest'

test('the page’s requests are recorded, with references and roles, and a Pact file of them', async ({ mock }) => {
  const token = mock.fixtures.tokens.team_reader
  const policy = mock.fixtures.policies[0]!.id
  await fetch('/v1/personas/?limit=2&intents=curious', { headers: { authorization: `Bearer ${token}` } })
  await fetch(`/v1/policies/${policy}/rules?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  await fetch('/v1/personas/')
  const contract = await mock.contract()
  expect(contract.interactions.map((item) => [item.path, item.query, item.role, item.response.status])).toEqual([
    ['/v1/personas/', 'limit=2&intents=curious', 'team_reader', 200],
    ['/v1/policies/{{policy 0 of team 0}}/rules', 'limit=1', 'team_reader', 200],
    ['/v1/personas/', '', 'anonymous', 401],
  ])
  const overHttp = await (await fetch('/__mock/contract')).json()
  expect(overHttp).toEqual(contract)
  const pact = await mock.contract('pact')
  expect(pact.interactions[1]!.request).toMatchObject({ path: `/v1/policies/${policy}/rules` })
})

test('the next test records only its own', async ({ mock }) => {
  expect((await mock.contract()).interactions).toEqual([])
})
