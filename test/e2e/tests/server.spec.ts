/**
 * Server mode: the page calls the standalone mock server on another origin (CORS). Every
 * test sends its own X-Mock-Session, so tests running in parallel on the one server each
 * work on their own copy of the seeded world.
 */
import { expect, test } from '@playwright/test'
import { Demo, sessionKey } from '../support/demo.js'
import { bulkAddFlow, errorsFlow, Oracle, personasFlow, rulesFlow } from '../support/flows.js'
import { API_URL } from '../support/servers.js'

let oracle: Oracle
test.beforeAll(async () => {
  oracle = await Oracle.seeded(1)
})

const openDemo = async (demo: Demo, session: string) => demo.open({ mode: 'server', api: API_URL, session })

test.describe('server mode', () => {
  test.beforeEach(async ({ page }, testInfo) => {
    await openDemo(new Demo(page), sessionKey(testInfo))
  })

  test('talks to the server under its own session', async ({ page }, testInfo) => {
    const demo = new Demo(page)
    await expect(demo.byTestId('mode')).toHaveText('server')
    await expect(demo.byTestId('where')).toContainText(`${API_URL} · session w${testInfo.workerIndex}-`)
    await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)
    await demo.screenshot('server-overview', testInfo)
  })

  test('lists, filters, searches and pages personas', async ({ page }, testInfo) => {
    await personasFlow(new Demo(page), oracle, testInfo)
  })

  test('pages rules and opens a rule', async ({ page }, testInfo) => {
    await rulesFlow(new Demo(page), oracle, testInfo, 'server')
  })

  test('bulk add: created and skipped duplicates', async ({ page }, testInfo) => {
    await bulkAddFlow(new Demo(page), testInfo, '95-99', 'server')
  })

  test('shows 401, 403 and 422 errors where they belong', async ({ page }, testInfo) => {
    await errorsFlow(new Demo(page), testInfo)
  })
})

/**
 * Two tests, run at the same time by the two workers, add the same new value under their own
 * sessions. Each must see it created: had either session seen the other's write, whichever
 * came second would show it skipped as a duplicate. A reload (same session) then shows that
 * the value did persist inside the session, so "created" is not just a fresh session each time.
 */
test.describe('sessions isolate parallel workers', () => {
  test.describe.configure({ mode: 'parallel' })

  for (const name of ['first', 'second']) {
    test(`${name} session adds the shared value`, async ({ page }, testInfo) => {
      const demo = new Demo(page)
      const session = sessionKey(testInfo)
      await openDemo(demo, session)
      await demo.role('super_admin')
      await demo.bulkAdd('Region', ['Shared isolation probe'])
      await expect(demo.bulk.summary()).toHaveText('1 created, 0 skipped as duplicates.')

      await openDemo(demo, session)
      await demo.role('super_admin')
      await demo.bulkAdd('Region', ['Shared isolation probe'])
      await expect(demo.bulk.skipped()).toHaveText(['Shared isolation probe'])
    })
  }
})
