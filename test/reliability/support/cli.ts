import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach } from 'vitest'

/** The built CLI (the test run's global setup builds dist/ first). */
export const CLI = resolve(import.meta.dirname, '../../../dist/server/cli.js')

export interface CliServer {
  url: string
  child: ChildProcess
  /** Everything written to stdout and stderr so far. */
  output(): string
  /** Sends a signal and waits for the process to exit; its exit code (null when killed). */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  /**
   * Stops the process with SIGSTOP, so that the files it writes stay as they are until it is
   * killed or thawed. Resolves true once every thread of it is seen stopped (Linux's /proc: no
   * system call of it is then under way, so nothing on disk can change any more); false where
   * there is no /proc to look at (the process is then only asked to stop).
   */
  freeze(): Promise<boolean>
  /** Lets a frozen process run on (SIGCONT). */
  thaw(): void
}

/** Whether /proc shows every thread of the process stopped (T, or t when traced). */
function allThreadsStopped(pid: number): boolean {
  const tasks = readdirSync(`/proc/${pid}/task`)
  return tasks.every((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1')
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
      return state === 'T' || state === 't'
    } catch {
      return true // the thread has ended
    }
  })
}

/** Sends SIGSTOP and waits until /proc shows the process stopped (at most 20 s: a hang guard, not a speed bound). */
async function freeze(child: ChildProcess): Promise<boolean> {
  child.kill('SIGSTOP')
  const pid = child.pid!
  if (!existsSync(`/proc/${pid}/task`)) return false
  const guard = Date.now() + 20_000
  while (!allThreadsStopped(pid)) {
    if (Date.now() > guard) throw new Error(`process ${pid} did not stop within 20 s of SIGSTOP`)
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1))
  }
  return true
}

/**
 * Starts the CLI (as another user if `as` says so) and waits for its banner; rejects with the output if it exits or
 * says nothing in time.
 */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  as: { uid?: number; gid?: number } = {},
): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  })
  let output = ''
  const exited = new Promise<number | null>((resolvePromise) => child.once('exit', (code) => resolvePromise(code)))
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no banner within 20 s:\n${output}`))
    }, 20_000)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the CLI exited with ${code} before listening:\n${output}`))
    })
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolvePromise({
        url: match[1]!,
        child,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          return exited
        },
        freeze: () => freeze(child),
        thaw: () => void child.kill('SIGCONT'),
      })
    })
  })
}

/** Runs the CLI to its end (for options it refuses), as another user if `as` says so; its exit code and output. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  as: { uid?: number; gid?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise({ code, output })))
}

type Fixtures = { dimensions: Array<{ id: string }>; tokens: { super_admin: string } }

/**
 * One bulk add into the first dimension of a server's default world, as its super admin: one flush
 * of the state file's log. `body` replaces the body (its values named by `values` then).
 * @returns the answer's status
 */
export async function bulkAddTo(url: string, values: string[], body?: string): Promise<number> {
  const fixtures = (await (await fetch(`${url}/__mock/fixtures`)).json()) as Fixtures
  const res = await fetch(`${url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
    body: body ?? JSON.stringify({ values: values.map((value) => ({ value })) }),
  })
  await res.arrayBuffer()
  return res.status
}

/** The values a server's default world holds, from its export. */
export async function storedValues(url: string): Promise<Set<string>> {
  const state = (await (await fetch(`${url}/__mock/state`)).json()) as { world: { values: Array<{ value: string }> } }
  return new Set(state.world.values.map((value) => value.value))
}

/**
 * Servers of the built CLI on state files of their own, for kill -9 tests: `stateFile()` names one in a new
 * folder, `start(file)` serves it (`--personas 4`, quiet, any port, plus `args`). After each test its servers are
 * killed and its folders removed.
 */
export function stateFileServers(args: string[] = []) {
  const folders: string[] = []
  const servers: CliServer[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop('SIGKILL')
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  })
  return {
    stateFile(): string {
      const folder = mkdtempSync(join(tmpdir(), 'acm-state-'))
      folders.push(folder)
      return join(folder, 'state.json')
    },
    async start(file: string): Promise<CliServer> {
      const server = await startCli(['--port', '0', '--quiet', '--personas', '4', '--state-file', file, ...args])
      servers.push(server)
      return server
    },
  }
}
