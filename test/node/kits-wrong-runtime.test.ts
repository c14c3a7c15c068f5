/**
 * The entries that run only in a page (agent-console-mock/browser, /vitest, /storybook), in Node: a sentence naming
 * the entry to use there, where Node's resolver said `ERR_PACKAGE_PATH_NOT_EXPORTED` and Vitest's Node tests failed
 * in msw's `setupWorker` invariant. Vite's resolver (these tests') still loads the entries, as jsdom tests need.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
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
  const error = await MockServiceWorker.create().then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
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

/**
 * Resolve hooks for a child Node: `vitest` is a stub (the kit's module calls `test.extend`, which needs Vitest's
 * runner), and, with `msw3`, `msw/browser` is refused as Node refuses a subpath that msw 3 exports as `null`.
 */
function resolveHooks(msw3: boolean): string {
  const hooks = `
    const VITEST = 'data:text/javascript,' + encodeURIComponent('export const test = { extend: () => ({}) }; export const expect = () => {}')
    export async function resolve(specifier, context, next) {
      if (specifier === 'vitest') return { url: VITEST, shortCircuit: true }
      if (${msw3} && specifier === 'msw/browser') {
        const error = new Error("Package subpath './browser' is not defined by \\"exports\\" in msw/package.json")
        error.code = 'ERR_PACKAGE_PATH_NOT_EXPORTED'
        throw error
      }
      return next(specifier, context)
    }`
  const registration = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)})`
  return `data:text/javascript,${encodeURIComponent(registration)}`
}

/**
 * The built page-only entries, imported by their files with Node's own `import()`: what Vitest does with a package's
 * files in a Node or jsdom test (it hands what is under node_modules to Node), so the entries' own imports meet Node's
 * resolver, to which msw 3 exports no `msw/browser`. Each entry's worker is then started: what each start rejects
 * with (its message and its cause's), or `imported: <error>` when the import itself failed.
 */
function startBuiltEntries(msw3: boolean): string[] {
  const file = (path: string) => JSON.stringify(pathToFileURL(`${root}dist/${path}`).href)
  const script = `
    const refusal = (start) => start.then(() => 'started', (error) => error.message + '\\ncause: ' + String(error.cause))
    const start = async (path, run) => {
      let entry
      try { entry = await import(path) } catch (error) { return 'imported: ' + String(error) }
      return refusal(run(entry))
    }
    console.log(JSON.stringify([
      await start(${file('browser/index.js')}, (entry) => entry.startMockWorker({ seed: 1, personasPerTeam: 1 })),
      await start(${file('kits/storybook/index.js')}, (entry) => entry.setupStoryWorker()),
      await start(${file('kits/vitest/index.js')}, (entry) => entry.MockServiceWorker.create()),
    ]))`
  const child = spawnSync(process.execPath, ['--import', resolveHooks(msw3), '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  })
  expect(child.stderr).toBe('')
  return JSON.parse(child.stdout)
}

const IN_NODE = [
  /^agent-console-mock\/browser runs in a browser page .*'agent-console-mock\/node'/,
  /^agent-console-mock\/storybook runs in Storybook's preview, .*'agent-console-mock\/node'/,
  /^agent-console-mock\/vitest is for Vitest browser mode .*'agent-console-mock\/node'/,
]

it('imports the built page-only entries where Node resolves msw (Vitest in Node or jsdom), and says so when a worker starts', () => {
  const refusals = startBuiltEntries(false)
  expect(refusals).toEqual(IN_NODE.map((sentence) => expect.stringMatching(sentence)))
  // msw 3 exports no `msw/browser` to Node; msw 2 loads it and refuses to make the worker.
  for (const text of refusals)
    expect(text).toMatch(
      /\ncause: (Error.*Package subpath '.\/browser' is not defined|.*Failed to execute .setupWorker. in a non-browser environment)/,
    )
}, 60_000)

it("imports the built page-only entries where Node refuses msw/browser (msw 3's exports, on any msw), and says so when a worker starts", () => {
  const refusals = startBuiltEntries(true)
  expect(refusals).toEqual(IN_NODE.map((sentence) => expect.stringMatching(sentence)))
  for (const text of refusals) expect(text).toMatch(/\ncause: Error: Package subpath '.\/browser' is not defined/)
}, 60_000)

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
