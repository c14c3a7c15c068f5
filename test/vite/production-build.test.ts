import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'vite'
import { afterAll, expect, it } from 'vitest'
import { agentConsoleMock } from 'agent-console-mock/vite'

const fixture = fileURLToPath(new URL('./fixture', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'agent-console-mock-vite-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * Strings any bundle of the mock holds, minified or not: its package name and worker script (in
 * startMockWorker), msw's console prefix and its worker handshake, faker's locale data, and pydantic's
 * messages, which the mock writes on the wire.
 */
const MARKERS = [
  'agent-console-mock',
  'mockServiceWorker',
  '[MSW]',
  'MOCKING_ENABLED',
  'faker',
  'Input should be a valid integer',
]

/** Builds the fixture app into a fresh folder; answers each file's path (relative) and its text. */
async function buildApp(root: string, name: string, plugins: Plugin[]): Promise<Map<string, string>> {
  const outDir = join(folder, name)
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  })
  const files = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
  return new Map(
    files.map((entry) => [
      join(entry.parentPath, entry.name).slice(outDir.length + 1),
      readFileSync(join(entry.parentPath, entry.name), 'utf8'),
    ]),
  )
}

const markersIn = (files: Map<string, string>) =>
  [...files].flatMap(([file, text]) =>
    MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`),
  )

it('builds an app with the plugin into output that holds none of the mock', async () => {
  const files = await buildApp(fixture, 'with-plugin', [agentConsoleMock({ seed: 7, persist: true })])
  expect([...files.keys()].sort()).toEqual([expect.stringMatching(/^assets\/index-[\w-]+\.js$/), 'index.html'])
  expect(markersIn(files)).toEqual([])
  expect(files.get('index.html'), "the app's own script, as written").toMatch(
    /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/,
  )
})

it('finds the markers in a build that imports the mock (the scan would see it)', async () => {
  // The README's manual start: the app imports startMockWorker itself (here by path: the same module).
  const app = join(folder, 'imports-mock-app')
  const browserHost = fileURLToPath(new URL('../../browser/index.ts', import.meta.url))
  mkdirSync(app)
  writeFileSync(join(app, 'index.html'), '<script type="module" src="./main.js"></script>\n')
  writeFileSync(
    join(app, 'main.js'),
    `import { startMockWorker } from ${JSON.stringify(browserHost)}\nawait startMockWorker()\n`,
  )
  const files = await buildApp(app, 'imports-mock', [])
  const found = new Set(markersIn(files).map((hit) => hit.slice(hit.indexOf(': ') + 2)))
  expect([...found].sort()).toEqual([...MARKERS].sort())
}, 180_000)
