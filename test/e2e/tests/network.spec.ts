/**
 * Network mode: the page sends relative requests and the `mock` fixture of
 * agent-console-mock/playwright answers them in the test process (context routing, no
 * service worker), over a world seeded for each test. So a test can override an answer with
 * msw handlers, and assert on the store after the page wrote to it.
 */
import { readFileSync } from 'node:fs'
import { http, HttpResponse } from 'msw'
import { expect, test } from 'agent-console-mock/playwright'
import { Demo } from '../support/demo.js'

test('lists the personas of the token’s team from the test’s world', async ({ page, mock }, testInfo) => {
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.byTestId('mode')).toHaveText('network')
  const team = mock.fixtures.teams[0]!.id
  const personas = mock.world.personasByTeam().get(team)!.ordered
  await expect(demo.personas.range()).toHaveText(`1–10 of ${personas.length}`)
  await expect(demo.personas.rows().getByTestId('persona-name')).toHaveText(personas.slice(0, 10).map((p) => p.name))
  await demo.screenshot('network-overview', testInfo)
})

test.describe('with another seed and size', () => {
  test.use({ mockOptions: { seed: 7, personasPerTeam: 13 } })

  test('shows the world the options asked for', async ({ page, mock }) => {
    const demo = new Demo(page)
    await demo.open({ mode: 'network' })
    expect(mock.fixtures.seed).toBe(7)
    await expect(demo.personas.range()).toHaveText('1–10 of 13')
    await demo.personas.next().click()
    await expect(demo.personas.range()).toHaveText('11–13 of 13')
  })
})

test('shows an overridden answer as an empty list', async ({ page, mock }, testInfo) => {
  mock.use(http.get('*/v1/personas/', () => HttpResponse.json({ results: [], total: 0 })))
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.byTestId('personas-empty')).toHaveText('No personas match.')
  await expect(demo.personas.range()).toHaveText('0 of 0')
  await expect(demo.personas.next()).toBeDisabled()
  // Only the overridden operation changed: rules still come from the world.
  await expect(demo.rules.range()).toHaveText(
    `1–20 of ${mock.world.rulesByPolicy().get(mock.fixtures.policies[0]!.id)!.length}`,
  )
  await demo.screenshot('network-empty-override', testInfo, demo.personas.panel())
})

test('a bulk add lands in the test’s store', async ({ page, mock }) => {
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await demo.role('super_admin')
  const region = mock.fixtures.dimensions.find((d) => d.name === 'Region')!
  const before = mock.world.values.all().length
  await demo.bulkAdd('Region', ['Arctic | The Arctic', 'Antarctica'])
  await expect(demo.bulk.summary()).toHaveText('2 created, 0 skipped as duplicates.')

  const stored = mock.world.values.all().filter((value) => value.dimension_id === region.id)
  expect(mock.world.values.all()).toHaveLength(before + 2)
  expect(stored.find((value) => value.value === 'Arctic')).toMatchObject({ display_name: 'The Arctic' })
  expect(stored.map((value) => value.value)).toContain('Antarctica')
})

test('errors answered by the fixture show like any other', async ({ page, mock }) => {
  // A 503 from the route: the status line shows the API's detail, the page keeps working.
  mock.use(
    http.get('*/v1/policies/:policyId/rules', () =>
      HttpResponse.json({ detail: 'Service Unavailable' }, { status: 503 }),
    ),
  )
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.rules.status()).toHaveText('503 Service Unavailable: Service Unavailable')
  await expect(demo.personas.range()).toHaveText(/^1–10 of \d+$/)
})

test('each 422 issue is shown next to the field its loc names', async ({ page, mock }) => {
  const issue = (loc: Array<string | number>, msg: string) => ({ type: 'value_error', loc, msg, input: 'x' })
  mock.use(
    http.get('*/v1/personas/', () =>
      HttpResponse.json(
        {
          detail: [
            issue(['query', 'team_id'], 'Team id is odd'),
            issue(['query', 'offset'], 'Offset is odd'),
            issue(['header', 'x-odd'], 'Header is odd'),
          ],
        },
        { status: 422 },
      ),
    ),
    http.post('*/v1/demographics/:dimensionId/values/bulk', () =>
      HttpResponse.json(
        {
          detail: [
            issue(['path', 'dimension_id'], 'Dimension id is odd'),
            issue(['body', 'values', 1, 'display_name'], 'Display name is odd'),
          ],
        },
        { status: 422 },
      ),
    ),
  )
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.byTestId('personas-team-error')).toHaveText('Team id is odd')
  await expect(demo.byTestId('personas-offset-error')).toHaveText('Offset is odd')
  // An issue the panel has no field for stays in the status line, with its location.
  await expect(demo.personas.status()).toContainText('3 validation errors')
  await expect(demo.personas.status()).toContainText('header.x-odd Header is odd')

  await demo.role('super_admin')
  await demo.bulkAdd('Region', ['Arctic', 'Antarctica | South'])
  await expect(demo.byTestId('bulk-dimension-error')).toHaveText('Dimension id is odd')
  await expect(demo.bulk.lineError(2)).toHaveText('Line 2 (display_name)Display name is odd')
})

test.describe('with the bulkDuplicates: reject profile', () => {
  test.use({ mockOptions: { profile: { bulkDuplicates: 'reject' } } })

  test('a duplicate rejects the whole bulk add with 409', async ({ page, mock }) => {
    const demo = new Demo(page)
    await demo.open({ mode: 'network' })
    await demo.role('super_admin')
    const before = mock.world.values.all().length
    await demo.bulkAdd('Age group', ['18-24', '90+'])
    await expect(demo.bulk.status()).toHaveText('409 Conflict: Duplicate values: 18-24')
    expect(mock.world.values.all()).toHaveLength(before)
  })
})

test.describe('with a team’s own OpenAPI document', () => {
  const document = JSON.parse(readFileSync(new URL('../../openapi/openapi-3.1.json', import.meta.url), 'utf8'))
  // The standalone mock the recorded contract is replayed against serves no document.
  test.use({ mockOptions: { openapi: document }, recordContract: '' })

  test('lists the served operations, and tries a list from the test’s world', async ({ page, mock }) => {
    const demo = new Demo(page)
    await demo.open({ mode: 'network' })
    const rows = demo.byTestId('served-row')
    await expect(rows).toHaveCount(9)
    await expect(rows.first().getByTestId('served-method')).toHaveText('GET')
    await expect(rows.first().getByTestId('served-path')).toHaveText('/v1/agents/')
    const agent = { name: 'Triage', kind: 'assistant', config: { model: 'm' }, tags: ['support'] }
    const token = mock.fixtures.tokens.team_reader
    const created = await page.evaluate(
      async ([agent, token]) =>
        (
          await fetch('/v1/agents/', {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(agent),
          })
        ).status,
      [agent, token] as const,
    )
    expect(created).toBe(201)
    await rows.first().getByTestId('served-try').click()
    await expect(demo.byTestId('served-status')).toHaveText('200 GET /v1/agents/')
    const answer = JSON.parse((await demo.byTestId('served-answer').textContent()) ?? '')
    expect(answer.total).toBe(6)
    expect(answer.results.map((listed: { id: string }) => listed.id)).toEqual(
      mock.world.documented('/v1/agents')?.map((stored) => stored.id),
    )
  })
})
