import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'

/**
 * The app's browser side, as a team writes it: the mock started in the page with typed overrides (the
 * functions the app's tests keep), built by Vite from the installed tarball, the worker script copied from
 * the installed msw (what `npx msw init public/` does).
 */
const MAIN = `
import { startMockWorker, type OperationOverride } from 'agent-console-mock/browser'

const pageOfLimit: OperationOverride<'list_personas'> = (req) => ({ body: { results: [], total: req.query.limit } })
const mock = await startMockWorker({ seed: 3, personasPerTeam: 9 })
const headers = { authorization: 'Bearer ' + mock.fixtures.tokens.team_reader }
const read = async (path: string) => {
  const res = await fetch(path, { headers })
  return { status: res.status, body: await res.text() }
}
const total = (answer: { status: number; body: string }) => ({ status: answer.status, total: JSON.parse(answer.body).total })
const seeded = total(await read('/v1/personas/'))
mock.override('list_personas', pageOfLimit)
mock.override('list_policy_rules', { error: 'not_found' })
const overridden = await read('/v1/personas/?limit=4')
const error = await read('/v1/policies/' + mock.fixtures.policies[0]!.id + '/rules')
mock.resetHandlers()
const reset = total(await read('/v1/personas/'))
document.body.dataset.answer = JSON.stringify({ seeded, overridden, error, reset })
`

export function writeBrowserApp(project: string): void {
  const app = join(project, 'web')
  mkdirSync(join(app, 'public'), { recursive: true })
  writeFileSync(join(app, 'index.html'), '<!doctype html><body><script type="module" src="/main.ts"></script></body>')
  writeFileSync(join(app, 'main.ts'), MAIN)
  copyFileSync(join(project, 'node_modules/msw/lib/mockServiceWorker.js'), join(app, 'public/mockServiceWorker.js'))
}

const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? ['/usr/bin/chromium'].find((path) => existsSync(path))

/** Builds the page with the app's Vite, serves the build, opens it in Chromium and reads what the page found. */
export async function runBrowserApp(project: string): Promise<unknown> {
  const vite = join(project, 'node_modules/vite/bin/vite.js')
  execFileSync(process.execPath, [vite, 'build', 'web', '--outDir', 'dist', '--logLevel', 'error'], { cwd: project })
  const server = spawn(
    process.execPath,
    [vite, 'preview', 'web', '--outDir', 'dist', '--port', '0', '--host', '127.0.0.1'],
    {
      cwd: project,
    },
  )
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = ''
      server.stdout.on('data', (chunk) => {
        output += chunk
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))
        if (found) resolve(found[0])
      })
      server.once('exit', (code) => reject(new Error(`vite preview exited with ${code}: ${output}`)))
    })
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
    try {
      const page = await browser.newPage()
      await page.goto(url)
      const answer = await page.locator('body[data-answer]').getAttribute('data-answer', { timeout: 60_000 })
      return JSON.parse(answer!)
    } finally {
      await browser.close()
    }
  } finally {
    server.kill()
  }
}
