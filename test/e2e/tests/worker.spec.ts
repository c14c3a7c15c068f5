/**
 * Worker mode: msw's service worker answers every request inside the browser; no server is
 * involved. Each test has a fresh browser context, so a fresh localStorage and world.
 */
import { expect, test } from '@playwright/test'
import { Demo } from '../support/demo.js'
import { bulkAddFlow, errorsFlow, Oracle, personasFlow, rulesFlow } from '../support/flows.js'

let oracle: Oracle
test.beforeAll(async () => {
  oracle = await Oracle.seeded(1)
})

test.beforeEach(async ({ page }) => {
  await new Demo(page).open({ mode: 'worker' })
})

test('starts the worker and shows the seeded world', async ({ page }, testInfo) => {
  const demo = new Demo(page)
  await expect(demo.byTestId('mode')).toHaveText('worker')
  await expect(demo.byTestId('where')).toHaveText('service worker · seed 1')
  // The answers really come from the service worker, not from any server.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/mockServiceWorker\.js$/)
  await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)
  await expect(demo.rules.range()).toHaveText(/of \d+$/)
  await demo.screenshot('worker-overview', testInfo)
})

test('lists, filters, searches and pages personas', async ({ page }, testInfo) => {
  await personasFlow(new Demo(page), oracle, testInfo, 'worker')
})

test('pages rules and opens a rule', async ({ page }, testInfo) => {
  await rulesFlow(new Demo(page), oracle, testInfo, 'worker')
})

test('bulk add: created and skipped duplicates', async ({ page }, testInfo) => {
  await bulkAddFlow(new Demo(page), testInfo, '95-99', 'worker')
})

test('shows 401, 403 and 422 errors where they belong', async ({ page }, testInfo) => {
  await errorsFlow(new Demo(page), testInfo, 'worker')
})

test('keeps the world across a reload (localStorage)', async ({ page }) => {
  const demo = new Demo(page)
  await demo.role('super_admin')
  await demo.bulkAdd('Occupation', ['Lighthouse keeper'])
  await expect(demo.bulk.summary()).toHaveText('1 created, 0 skipped as duplicates.')

  await page.reload()
  await demo.ready()
  await demo.role('super_admin')
  await demo.bulkAdd('Occupation', ['Lighthouse keeper'])
  await expect(demo.bulk.summary()).toHaveText('0 created, 1 skipped as duplicate.')
  await expect(demo.bulk.skipped()).toHaveText(['Lighthouse keeper'])
})
