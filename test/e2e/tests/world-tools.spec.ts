/**
 * The tools a test arranges its world with, in the Playwright fixture (network mode): factories,
 * snapshots, the clock and typed overrides, seen by the page through the API.
 */
import { expect, test } from 'agent-console-mock/playwright'
import { Demo } from '../support/demo.js'

test.use({ mockOptions: { seed: 11, personasPerTeam: 3 } })

test('shows a persona the test created, and comes back to a snapshot without it', async ({ page, mock }) => {
  await mock.snapshot('seeded')
  const created = await mock.create.persona({ name: 'Made by the test', created_at: 4_000_000_000 })
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.personas.range()).toHaveText('1–4 of 4')
  await expect(demo.personas.rows().getByTestId('persona-name').first()).toHaveText(created.name)
  await mock.restore('seeded')
  await page.reload()
  await expect(demo.personas.range()).toHaveText('1–3 of 3')
  await expect(demo.personas.rows().getByTestId('persona-name')).not.toContainText([created.name])
})

test('dates what the page adds by the mock clock', async ({ page, mock }) => {
  mock.clock.set('2030-01-02T03:04:05Z', { frozen: true })
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  const before = mock.world.values.all().length
  const response = page.waitForResponse((r) => r.url().includes('/values/bulk'))
  await page.evaluate(async (token) => {
    const dimensions = await (await fetch('/__mock/fixtures')).json()
    await fetch(`/v1/demographics/${dimensions.dimensions[0].id}/values/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ values: [{ value: 'dated-by-the-clock' }] }),
    })
  }, mock.fixtures.tokens.super_admin)
  expect((await response).status()).toBe(201)
  const stored = mock.world.values.all().slice(before)
  expect(stored.map((v) => [v.value, v.created_at])).toEqual([
    ['dated-by-the-clock', Date.parse('2030-01-02T03:04:05Z') / 1000],
  ])
})

test('answers the page with a typed override', async ({ page, mock }) => {
  mock.override('list_personas', { status: 200, body: { results: [], total: 0 } })
  const demo = new Demo(page)
  await demo.open({ mode: 'network' })
  await expect(demo.byTestId('personas-empty')).toHaveText('No personas match.')
})
