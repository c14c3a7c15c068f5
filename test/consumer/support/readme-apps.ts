import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './app.js'
import { viteAnswer } from './chromium.js'
import { readmeExample } from './readme.js'

const PAGE = '<!doctype html><body><script type="module" src="/main.ts"></script></body>'

/** The page of an app that imports nothing of the mock: it only asks the API, as the plugin's README says. */
const ASKING_APP = `
const fixtures = await (await fetch('/__mock/fixtures')).json()
const headers = { authorization: 'Bearer ' + fixtures.tokens.team_reader }
const page = await (await fetch('/v1/personas/?limit=5', { headers })).json()
document.body.dataset.answer = JSON.stringify({ seed: fixtures.seed, total: page.total })
`

/** The app behind the README's guarded start; `renderApp` is the app's own. */
const RENDER_APP = `
function renderApp(): void {
  document.body.dataset.rendered = 'the app rendered'
}
`

/** The worker script as the README says for Vite: served by the dev server only. */
const GUARDED_CONFIG = `
import { defineConfig } from 'vite'
import { mockServiceWorker } from 'agent-console-mock/vite'

export default defineConfig({ plugins: [mockServiceWorker()] })
`

/**
 * Two apps from the README's "Browser" examples: `web-plugin/` with its vite.config.ts as written, and
 * `web-guarded/` with its main.ts as written (the mock started behind `import.meta.env.DEV`).
 */
export function writeReadmeApps(project: string): void {
  const files: Record<string, string> = {
    'web-plugin/vite.config.ts': readmeExample('### Browser', 'vite.config.ts'),
    'web-plugin/index.html': PAGE,
    'web-plugin/main.ts': ASKING_APP,
    'web-guarded/vite.config.ts': GUARDED_CONFIG,
    'web-guarded/index.html': PAGE,
    'web-guarded/main.ts': readmeExample('### Browser', 'main.ts') + RENDER_APP,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(project, file, '..'), { recursive: true })
    writeFileSync(join(project, file), text)
  }
}

/** The plugin's app on Vite's dev server, in Chromium: what the page got, and what Vite printed. */
export const runPluginApp = (project: string) => viteAnswer(project, ['web-plugin'])

/** Builds the guarded app for production; answers each output file (its path in the output) and its text. */
export function buildGuardedApp(project: string): Map<string, string> {
  const outDir = join(project, 'web-guarded/dist')
  run(
    process.execPath,
    [join(project, 'node_modules/vite/bin/vite.js'), 'build', 'web-guarded', '--logLevel', 'error'],
    project,
  )
  const files = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
  return new Map(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name)
      return [path.slice(outDir.length + 1), readFileSync(path, 'utf8')]
    }),
  )
}

/**
 * Strings any bundle of the mock holds, minified or not (as test/vite/production-build.test.ts): the package's
 * name and its worker script's, its entry's name, msw's console prefix and worker handshake, faker's name, a
 * pydantic message the mock writes.
 */
const MOCK_MARKERS = [
  'agent-console-mock',
  'mockServiceWorker',
  'startMockWorker',
  '[MSW]',
  'MOCKING_ENABLED',
  'faker',
  'Input should be a valid integer',
]

/** Each marker of the mock found in the files, as `file: marker`. */
export const mockTraces = (files: Map<string, string>) =>
  [...files].flatMap(([file, text]) =>
    MOCK_MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`),
  )
