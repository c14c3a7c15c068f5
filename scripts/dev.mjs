#!/usr/bin/env node
/**
 * `npm run dev [-- <server options>]`: the standalone server, rebuilt and restarted on every change.
 *
 * - `tsc -b tsconfig.build.json --watch` rebuilds dist/ incrementally; after each build without
 *   errors the server is stopped (SIGTERM: it finishes its state write) and started again. A build
 *   with errors leaves the running server as it is.
 * - The world survives restarts: the server runs with `--state-file .dev/state.json` (a git-ignored
 *   folder) unless a `--state-file` is given. The file keeps the default world only (not the
 *   X-Mock-Session worlds), and once written it wins over `--seed`/`--personas`: `rm -rf .dev` or
 *   `POST /__mock/reset` starts over.
 * - Any other arguments go to the server as they are, e.g. `npm run dev -- --port 4011 --quiet`.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const STATE_FILE = '.dev/state.json'
const args = process.argv.slice(2)
const ownStateFile = args.some((arg) => arg === '--state-file' || arg.startsWith('--state-file='))
const serverArgs = ownStateFile ? args : ['--state-file', STATE_FILE, ...args]
const log = (line) => console.log(`\x1b[36m[dev]\x1b[0m ${line}`)

if (!ownStateFile) mkdirSync(join(root, dirname(STATE_FILE)), { recursive: true })

let server // the running server's child process, if any
let stopping = false

function startServer() {
  const child = spawn(process.execPath, [join(root, 'dist/hosts/server/cli.js'), ...serverArgs], {
    cwd: root,
    stdio: 'inherit',
  })
  server = child
  child.once('exit', (code, signal) => {
    if (server === child) server = undefined
    if (!child.stopRequested && !stopping)
      log(`the server stopped (${signal ?? `exit ${code}`}); it starts again after the next successful build`)
  })
}

function stopServer() {
  const child = server
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  child.stopRequested = true
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(kill)
      done()
    })
    child.kill('SIGTERM')
  })
}

// Restarts run one at a time; builds that finish during one ask for one more, not one each.
let restarting
let again = false
function restart() {
  if (restarting) {
    again = true
    return
  }
  restarting = (async () => {
    do {
      again = false
      if (server) log('rebuilt: restarting the server')
      await stopServer()
      if (!stopping) startServer()
    } while (again && !stopping)
  })().finally(() => (restarting = undefined))
}

// A first build (a no-op when dist/ is current), so that the server starts at once.
const built =
  spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' }).status === 0
if (built) startServer()
else log('the build failed: the server starts after the next build without errors')

const tsc = spawn(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-b',
    join(root, 'tsconfig.build.json'),
    '--watch',
    '--preserveWatchOutput',
  ],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
let firstReport = true
createInterface({ input: tsc.stdout }).on('line', (line) => {
  console.log(`\x1b[35m[tsc]\x1b[0m ${line}`)
  const found = /Found (\d+) errors?\b/.exec(line)
  if (!found) return
  const errors = Number(found[1])
  const initial = firstReport
  firstReport = false
  if (errors > 0) {
    if (server) log('the build has errors: the server goes on with the previous code')
    return
  }
  // tsc's first report is the watch's own start: the server already runs what it built.
  if (initial && server) return
  restart()
})
tsc.once('exit', (code, signal) => {
  if (stopping) return
  log(`tsc --watch stopped (${signal ?? `exit ${code}`})`)
  void shutdown(1)
})

async function shutdown(status) {
  if (stopping) return
  stopping = true
  tsc.kill('SIGTERM')
  await restarting
  await stopServer()
  process.exit(status)
}
process.once('SIGINT', () => void shutdown(0))
process.once('SIGTERM', () => void shutdown(0))
// Whatever happens to this process, no child outlives it.
process.once('exit', () => {
  server?.kill('SIGTERM')
  tsc.kill('SIGTERM')
})
