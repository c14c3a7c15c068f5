import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { appEnv } from './app.js'
import { CHROMIUM } from './chromium.js'
import { readmeExample } from './readme.js'

/**
 * The app's page, what the README's Playwright example drives: the personas it was given, as `N of M`, and a
 * *New value* field whose *Add* bulk-adds it to the first demographic dimension and says how many were created.
 * The ids and tokens come from the mock's fixtures, as the demo's network mode takes them.
 */
const PAGE = `<!doctype html><body>
<p id="personas"></p>
<form><label>New value <input name="value"></label><button>Add</button></form>
<p id="added"></p>
<script type="module">
const fixtures = await (await fetch('/__mock/fixtures')).json()
const as = (role) => ({ authorization: 'Bearer ' + fixtures.tokens[role], 'content-type': 'application/json' })
const page = await (await fetch('/v1/personas/', { headers: as('team_reader') })).json()
document.getElementById('personas').textContent = page.results.length + ' of ' + page.total
document.querySelector('form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const values = [{ value: new FormData(event.target).get('value') }]
  const dimension = fixtures.dimensions[0].id
  const res = await fetch('/v1/demographics/' + dimension + '/values/bulk', {
    method: 'POST', headers: as('super_admin'), body: JSON.stringify({ values }),
  })
  document.getElementById('added').textContent = (await res.json()).length + ' created'
})
</script></body>`

/** The app's page server, which Playwright starts (`webServer`): only the page, the API is the mock's. */
const PAGE_SERVER = `
import { createServer } from 'node:http'
createServer((request, response) => {
  response.setHeader('content-type', 'text/html')
  response.end(${JSON.stringify(PAGE)})
}).listen(Number(process.env.PORT), '127.0.0.1')
`

const config = (port: number) => `
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: './e2e',
  reporter: 'list',
  timeout: 300_000,
  expect: { timeout: 120_000 },
  webServer: { command: 'node page-server.mjs', url: 'http://127.0.0.1:${port}/', env: { PORT: '${port}' } },
  use: {
    baseURL: 'http://127.0.0.1:${port}',
    launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ['--no-sandbox', '--disable-gpu'] },
  },
})
`

/** A free loopback port for the page server (Playwright's `webServer` needs one it knows in advance). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Runs the README's Playwright example as written (`e2e/readme.spec.ts`), every test of it, with the app's
 * Playwright, against the app's page in Chromium. Answers Playwright's exit status and report.
 */
export async function runReadmePlaywright(project: string): Promise<{ status: number | null; report: string }> {
  mkdirSync(join(project, 'e2e'), { recursive: true })
  writeFileSync(join(project, 'e2e/readme.spec.ts'), readmeExample('### Playwright'))
  writeFileSync(join(project, 'page-server.mjs'), PAGE_SERVER)
  writeFileSync(join(project, 'playwright.config.ts'), config(await freePort()))
  const cli = join(project, 'node_modules/@playwright/test/cli.js')
  const playwright = spawnSync(process.execPath, [cli, 'test'], { cwd: project, encoding: 'utf8', env: appEnv() })
  return { status: playwright.status, report: `${playwright.stdout}${playwright.stderr}` }
}
