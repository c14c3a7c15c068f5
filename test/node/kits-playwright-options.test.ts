/**
 * The Playwright fixture's `mockOptions` refuses names it does not take, as createMockServer does: a misspelt `sed`
 * or another entry's `baseUrl` was ignored without a word, and the test ran on the default world. Run by Playwright
 * itself (the fixture needs its runner), on the built package, in a folder of its own.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'agent-console-mock-playwright-options-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Runs one Playwright test with these `mockOptions`: its exit status and what the list reporter printed. */
function runWith(mockOptions: object): { status: number | null; output: string } {
  writeFileSync(
    join(folder, 'playwright.config.mjs'),
    `import { launchOptions } from ${JSON.stringify(join(root, 'test/e2e/support/chromium.ts'))}
export default { testDir: '.', testMatch: /options\\.spec\\.mjs$/, outputDir: 'results', workers: 1, reporter: 'list', use: { launchOptions } }
`,
  )
  writeFileSync(
    join(folder, 'options.spec.mjs'),
    `import { test, expect } from ${JSON.stringify(join(root, 'dist/kits/playwright/index.js'))}
test.use({ mockOptions: ${JSON.stringify(mockOptions)} })
test('seeds its world', async ({ mock }) => {
  expect(mock.world.personas.all().length).toBeGreaterThan(0)
})
`,
  )
  const child = spawnSync(
    process.execPath,
    [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(folder, 'playwright.config.mjs')],
    { cwd: folder, encoding: 'utf8', env: { ...process.env, CI: '' } },
  )
  return { status: child.status, output: child.stdout + child.stderr }
}

it('refuses an unknown name in mockOptions, listing the names it takes', () => {
  const { status, output } = runWith({ sed: 3, baseUrl: 'http://localhost:3000' })
  expect(status, output).toBe(1)
  expect(output).toContain(
    'TypeError: agent-console-mock/playwright mockOptions: unknown options "sed", "baseUrl"; the options are seed, ' +
      'personasPerTeam, profile, jwtSecret, scenario, scenarios, openapi, delayMs.',
  )
}, 120_000)

it('takes the names it knows', () => {
  const { status, output } = runWith({ seed: 3, personasPerTeam: 2, delayMs: 0 })
  expect(status, output).toBe(0)
}, 120_000)
