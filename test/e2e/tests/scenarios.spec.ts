/**
 * Scenarios in the demo: the picker in the header switches the page's world (worker mode: the
 * browser host's `?scenario=`; server mode: `PUT /__mock/scenario` for the page's session), and
 * the Playwright fixture starts a test's world in one (`mockOptions: { scenario }`).
 */
import { expect, test } from '@playwright/test'
import { test as mockTest } from 'agent-console-mock/playwright'
import { Demo, sessionKey } from '../support/demo.js'
import { Oracle } from '../support/flows.js'
import { API_URL } from '../support/servers.js'

let oracle: Oracle
test.beforeAll(async () => {
  oracle = await Oracle.seeded(1)
})

/** Picks a scenario and waits for the page to come back on it. */
async function pick(demo: Demo, scenario: string) {
  const url = new RegExp(`[?&]scenario=${scenario}(&|$)`)
  await Promise.all([demo.page.waitForURL(url), demo.byTestId('scenario-select').selectOption(scenario)])
  await demo.ready()
}

async function expectEmptyTeam(demo: Demo) {
  await expect(demo.byTestId('scenario-select')).toHaveValue('empty-team')
  await expect(demo.byTestId('personas-empty')).toHaveText('No personas match.')
  await expect(demo.personas.range()).toHaveText('0 of 0')
  // Only the personas of the first team are gone: the rules are the seeded ones.
  await expect(demo.rules.range()).toHaveText(`1–20 of ${oracle.rules(oracle.policies[0]!.id).length}`)
}

test('worker mode: the picker lists the scenarios and reloads the page on empty-team', async ({ page }, testInfo) => {
  const demo = new Demo(page)
  await demo.open({ mode: 'worker' })
  const picker = demo.byTestId('scenario-select')
  await expect(picker).toHaveValue('')
  await expect(picker.locator('option')).toContainText(['none', 'empty-team', 'forbidden-user'])
  await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)

  await pick(demo, 'empty-team')
  await expectEmptyTeam(demo)
  await demo.screenshot('worker-scenario-empty-team', testInfo)

  await pick(demo, '')
  await expect(picker).toHaveValue('')
  await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)
})

test('server mode: the picker selects empty-team for the page’s session, and a reload keeps it', async ({
  page,
}, testInfo) => {
  const demo = new Demo(page)
  const session = sessionKey(testInfo)
  await demo.open({ mode: 'server', api: API_URL, session })
  await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)

  await pick(demo, 'empty-team')
  await expectEmptyTeam(demo)
  const selected = await page.request.get(`${API_URL}/__mock/scenario`, { headers: { 'x-mock-session': session } })
  expect(await selected.json()).toEqual({ scenarios: ['empty-team'] })

  await page.reload()
  await demo.ready()
  await expectEmptyTeam(demo)
})

test('an unknown ?scenario= stops the demo with the names the mock knows', async ({ page }) => {
  await page.goto('/?mode=worker&scenario=no-such-scenario')
  await expect(page.getByTestId('fatal')).toContainText('Unknown scenario "no-such-scenario"; known: empty-team')
})

mockTest.describe('network mode, with mockOptions: { scenario: empty-team }', () => {
  mockTest.use({ mockOptions: { scenario: 'empty-team' } })

  mockTest('the test’s world starts empty, and the picker takes it back to the seeded one', async ({ page, mock }) => {
    expect(mock.scenario).toEqual(['empty-team'])
    const demo = new Demo(page)
    await demo.open({ mode: 'network' })
    await expectEmptyTeam(demo)

    await pick(demo, '')
    expect(mock.scenario).toEqual([])
    const team = mock.fixtures.teams[0]!.id
    await expect(demo.personas.range()).toHaveText(`1–10 of ${mock.world.personasByTeam().get(team)!.ordered.length}`)
  })
})
