#!/usr/bin/env node
/**
 * `npm run dev [-- <server options>]`: the standalone server, rebuilt and restarted on every change.
 *
 * - A change to a source file rebuilds dist/ (scripts/build.mjs: esbuild, a fraction of a second);
 *   after each build without errors the server is stopped (SIGTERM: it finishes its state write)
 *   and started again. A build with errors leaves the running server as it is. Type errors are
 *   `npm run typecheck`'s: the build only transpiles.
 * - The world survives restarts: the server runs with `--state-file .dev/state.json` (a git-ignored
 *   folder) unless a `--state-file` is given. The file keeps the default world only (not the
 *   X-Mock-Session worlds), and once written it wins over `--seed`/`--personas`: `rm -rf .dev` or
 *   `POST /__mock/reset` starts over.
 * - Any other arguments go to the server as they are, e.g. `npm run dev -- --port 4011 --quiet`.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, watch } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, sourceFiles } from './build.mjs'

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
  const child = spawn(process.execPath, [join(root, 'dist/server/cli.js'), ...serverArgs], {
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

// A first build, so that the server starts at once.
if ((await build()) === 0) startServer()
else log('the build failed: the server starts after the next build without errors')

// Builds run one at a time; changes saved during one ask for one more, not one each.
let building
let changed = false
async function rebuild() {
  changed = true
  if (building) return
  building = (async () => {
    while (changed && !stopping) {
      changed = false
      if ((await build()) === 0) restart()
      else if (server) log('the build has errors: the server goes on with the previous code')
    }
  })().finally(() => (building = undefined))
}

// The folders that hold sources, watched whole: a new file is built with the next change.
let settling
const folders = new Set(sourceFiles().map((file) => file.split('/')[0]))
const watchers = [...folders].map((folder) =>
  watch(join(root, folder), { recursive: true }, (_event, name) => {
    // An editor's save is often several events: one build after they settle.
    if (!name?.endsWith('.ts')) return
    clearTimeout(settling)
    settling = setTimeout(() => void rebuild(), 50)
  }),
)

async function shutdown(status) {
  if (stopping) return
  stopping = true
  for (const watcher of watchers) watcher.close()
  await building
  await restarting
  await stopServer()
  process.exit(status)
}
process.once('SIGINT', () => void shutdown(0))
process.once('SIGTERM', () => void shutdown(0))
// Whatever happens to this process, no child outlives it.
process.once('exit', () => {
  server?.kill('SIGTERM')
})
