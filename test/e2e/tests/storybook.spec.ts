/**
 * The repository's Storybook (storybook/), built with Storybook's static build and served as files:
 * stories of the demo console's panels, each answered by a world of its own through msw-storybook-addon's
 * worker and agent-console-mock/storybook. Expected data comes from a world seeded as the preview's.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect as baseExpect, type Page, test } from '@playwright/test'
import { createWorld } from 'agent-console-mock'
import { Demo } from '../support/demo.js'
import { Oracle } from '../support/flows.js'
import { STORYBOOK_URL } from '../support/servers.js'

// Each story loads the preview (a 1.6 MB bundle), starts the worker and seeds a world: room for a busy machine.
test.describe.configure({ timeout: 180_000 })
const expect = baseExpect.configure({ timeout: 30_000 })

let oracle: Oracle
test.beforeAll(async () => {
  oracle = new Oracle(await createWorld({ seed: 1, personasPerTeam: 30 })) // .storybook/preview.ts's options
})

/** A story alone, as Storybook's preview iframe renders it. */
async function story(page: Page, id: string): Promise<Demo> {
  await page.goto(`${STORYBOOK_URL}/iframe.html?id=demo-console-${id}&viewMode=story`)
  return new Demo(page)
}

test('a story of the seeded world: the panel shows what the mock answers', async ({ page }) => {
  const demo = await story(page, 'personas--seeded')
  await expect(demo.personas.range()).toHaveText(`1–10 of ${oracle.personas.length}`)
  await expect(demo.personas.rows().first().getByTestId('persona-name')).toHaveText(oracle.personas[0]!.name)
  // Answered by msw's worker script of the installed msw, copied into the static build.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${STORYBOOK_URL}/mockServiceWorker.js`,
  )
  const served = await page.request.get(`${STORYBOOK_URL}/mockServiceWorker.js`)
  const installed = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'))
  expect(Buffer.from(await served.body()).equals(installed), 'the installed msw’s worker script').toBe(true)
})

test('a story with a scenario: the empty team', async ({ page }) => {
  const demo = await story(page, 'personas--empty-team')
  await expect(demo.byTestId('personas-empty')).toHaveText('No personas match.')
  await expect(demo.personas.range()).toHaveText('0 of 0')
})

test('a story with typed overrides: error shapes, a status and body, a function of the request', async ({ page }) => {
  let demo = await story(page, 'personas--forbidden')
  await expect(demo.personas.status()).toHaveText('403 Forbidden: Missing permission: persona:read')
  demo = await story(page, 'policy-rules--policy-not-found')
  await expect(demo.rules.status()).toHaveText('404 Not Found: Policy not found')
  demo = await story(page, 'policy-rules--no-rules')
  await expect(demo.rules.rows()).toHaveCount(0)
  await expect(demo.rules.range()).toHaveText('0 of 0')
  demo = await story(page, 'personas--override-function')
  await expect(demo.personas.rows().getByTestId('persona-name')).toHaveText([oracle.world.personas.all()[0]!.name])
  await expect(demo.personas.range()).toHaveText('1–1 of 1')
})

test('stories of the rules panel and of data arranged with the factories', async ({ page }) => {
  let demo = await story(page, 'policy-rules--seeded')
  const rules = oracle.rules(oracle.policies[0]!.id)
  await expect(demo.rules.range()).toHaveText(`1–20 of ${rules.length}`)
  await expect(demo.rules.rows().first()).toHaveAttribute('data-rule-id', rules[0]!.rule_id)
  demo = await story(page, 'personas--arranged')
  await expect(demo.personas.rows().first().getByTestId('persona-name')).toHaveText('Ada Storybook')
  await expect(demo.personas.range()).toHaveText('1–10 of 31') // seed 7's 30, and Ada
})

test('a write in one story is gone in the next, in the same preview page', async ({ page }) => {
  await page.goto(`${STORYBOOK_URL}/?path=/story/demo-console-bulk-add--seeded`)
  const frame = page.frameLocator('#storybook-preview-iframe')
  const add = async (expected: string) => {
    await frame.getByTestId('bulk-dimension').selectOption({ label: 'Occupation' })
    await frame.getByTestId('bulk-values').fill('Lighthouse keeper')
    await frame.getByTestId('bulk-submit').click()
    await expect(frame.getByTestId('bulk-summary')).toHaveText(expected)
  }
  const open = async (id: string) => {
    await page.locator(`[data-item-id="demo-console-bulk-add--${id}"]`).click()
    await expect(frame.getByTestId('bulk-summary')).toHaveCount(0) // the new story's panel
  }
  await add('1 created, 0 skipped as duplicates.')
  await add('0 created, 1 skipped as duplicate.') // the story's world keeps its writes
  // Storybook switches stories without reloading the iframe: a page-global world would be kept.
  await frame.locator('body').evaluate(() => Object.assign(window, { sameDocument: true }))
  await open('reject-duplicates') // where a duplicate would answer 409
  await add('1 created, 0 skipped as duplicates.')
  await open('seeded')
  await add('1 created, 0 skipped as duplicates.')
  expect(await frame.locator('body').evaluate(() => 'sameDocument' in window)).toBe(true)
})
