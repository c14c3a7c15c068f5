import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { run } from './app.js'
import { viteAnswer } from './chromium.js'

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
  const workerScript = createRequire(join(project, 'package.json')).resolve('msw/mockServiceWorker.js')
  copyFileSync(workerScript, join(app, 'public/mockServiceWorker.js'))
}

/** Builds the page with the app's Vite, serves the build, opens it in Chromium and reads what the page found. */
export async function runBrowserApp(project: string): Promise<unknown> {
  run(
    process.execPath,
    [join(project, 'node_modules/vite/bin/vite.js'), 'build', 'web', '--outDir', 'dist', '--logLevel', 'error'],
    project,
  )
  return (await viteAnswer(project, ['preview', 'web', '--outDir', 'dist'])).answer
}
