/**
 * The entries that run only in a page (agent-console-mock/browser, /vitest, /storybook), in Node: a sentence naming
 * the entry to use there, where Node's resolver said `ERR_PACKAGE_PATH_NOT_EXPORTED` and Vitest's Node tests failed
 * in msw's `setupWorker` invariant. Vite's resolver (these tests') still loads the entries, as jsdom tests need.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * A page-only entry, as Vite's resolver loads it in a Vitest test that runs in Node (here, from its source).
 * Imported by a name held in a variable and typed loosely: its declarations need the DOM's types, which this
 * Node test's type check has not.
 */
const pageEntry = (entry: 'browser' | 'storybook' | 'vitest'): Promise<any> => import(`agent-console-mock/${entry}`)

it("says the Vitest kit is for browser mode when a Node test starts its worker, keeping msw's refusal as the cause", async () => {
  // What the kit's worker fixture does first.
  const { MockServiceWorker } = await pageEntry('vitest')
  let error: unknown
  try {
    new MockServiceWorker()
  } catch (thrown) {
    error = thrown
  }
  expect(error).toBeInstanceOf(Error)
  expect((error as Error).message).toMatch(
    /^agent-console-mock\/vitest is for Vitest browser mode .*createMockServer from 'agent-console-mock\/node'/,
  )
  expect(String((error as Error).cause)).toMatch(/\[MSW\] Failed to execute .setupWorker. in a non-browser environment/)
})

it("says the browser and Storybook entries run in a page when Node starts their worker, keeping msw's refusal", async () => {
  const [{ startMockWorker }, { setupStoryWorker }] = await Promise.all([pageEntry('browser'), pageEntry('storybook')])
  const refusals = await Promise.all([
    startMockWorker({ seed: 1, personasPerTeam: 1 }).then(() => undefined, String),
    setupStoryWorker().then(() => undefined, String),
  ])
  expect(refusals).toEqual([
    expect.stringMatching(/^Error: agent-console-mock\/browser runs in a browser page .*'agent-console-mock\/node'/),
    expect.stringMatching(
      /^Error: agent-console-mock\/storybook runs in Storybook's preview, .*'agent-console-mock\/node'/,
    ),
  ])
})

/** What Node prints when it imports the package's entry by name (the package refers to itself from its root). */
function importInNode(entry: string): { status: number | null; stderr: string } {
  const script = `await import('agent-console-mock/${entry}')`
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
  return { status: child.status, stderr: child.stderr }
}

it('names the entry Node takes when Node imports a page-only entry (the built `node-addons` export condition, which only Node sets)', () => {
  const expected = {
    browser: /Error: agent-console-mock\/browser runs in a browser page .*'agent-console-mock\/node'/,
    vitest: /Error: agent-console-mock\/vitest is for Vitest browser mode .*'agent-console-mock\/node'/,
    storybook: /Error: agent-console-mock\/storybook runs in Storybook's preview, .*'agent-console-mock\/node'/,
  }
  for (const [entry, message] of Object.entries(expected)) {
    const { status, stderr } = importInNode(entry)
    expect(status, entry).toBe(1)
    expect(stderr, entry).toMatch(message)
    expect(stderr, entry).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED')
  }
  expect(importInNode('node').status, 'the Node entry still imports').toBe(0)
}, 60_000)
