import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { HANG_GUARD_MS } from './support/fuzz.js'
import { bulkAddTo, CLI, runCli, startCli, storedValues } from './support/cli.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-lock-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const holderOf = (stateFile: string) => JSON.parse(readFileSync(`${stateFile}.lock`, 'utf8')) as { pid: number }
const argsFor = (stateFile: string) => ['--port', '0', '--quiet', '--personas', '2', '--state-file', stateFile]

/** Polls until `found` holds; a hang guard (never a bound on speed) fails the test after 20 s. */
async function until<T>(found: () => T | undefined | false, what: string): Promise<T> {
  const guard = Date.now() + HANG_GUARD_MS
  for (;;) {
    const value = found()
    if (value) return value
    if (Date.now() > guard) throw new Error(`hang guard: still waiting after ${HANG_GUARD_MS} ms until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The state of a process in /proc (`Z`: a zombie), undefined once it is gone. */
const processState = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
  } catch {
    return undefined
  }
}

/**
 * Starts the CLI under a parent that never reaps it (a shell that becomes `sleep`): once killed,
 * the server stays a zombie, as in a container without an init process.
 */
async function startUnreaped(args: string[]) {
  const out = join(folder, `unreaped-${Date.now()}.out`)
  const parent = spawn(
    '/bin/sh',
    [
      '-c',
      'node="$1"; shift; "$node" "$@" >"$OUT" 2>&1 & echo $!; exec sleep 600',
      'sh',
      process.execPath,
      CLI,
      ...args,
    ],
    { env: { ...process.env, OUT: out }, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let pid = ''
  parent.stdout!.on('data', (chunk) => (pid += chunk))
  const server = Number(await until(() => /^\d+\n/.test(pid) && pid.trim(), 'the shell names the server'))
  const url = await until(
    () => existsSync(out) && /listening on (http:\/\/\S+)/.exec(readFileSync(out, 'utf8'))?.[1],
    'the server listens',
  )
  return { pid: server, url, parent }
}

it('refuses a second server on the same state file, naming the process that holds it; the first goes on', async () => {
  const stateFile = join(folder, 'shared.json')
  const first = await startCli(argsFor(stateFile))
  try {
    const second = await runCli(argsFor(stateFile))
    expect(second.code).toBe(1)
    expect(second.output).toContain(
      `${stateFile} is in use by another agent-console-mock server ` +
        `(process ${first.child.pid} holds ${stateFile}.lock). Stop that server, or pass another --state-file.`,
    )
    expect(second.output, 'says how to find the holder').toContain(`fuser -v ${stateFile}.lock`)
    expect(await bulkAddTo(first.url, ['after the refusal']), 'the first server still keeps its changes').toBe(201)
    expect(holderOf(stateFile).pid).toBe(first.child.pid)
  } finally {
    expect(await first.stop()).toBe(0)
  }
  const third = await startCli(argsFor(stateFile))
  const values = await storedValues(third.url)
  expect(await third.stop()).toBe(0)
  expect(values.has('after the refusal'), 'once the first stopped, the file is free, and whole').toBe(true)
}, 120_000)

it('refuses a second server in the same process, however the path is spelled', async () => {
  const stateFile = join(folder, 'in-process.json')
  const first = await startTestServer({ stateFile })
  const throughLink = join(folder, 'link-to-folder')
  symlinkSync(folder, throughLink)
  try {
    for (const path of [stateFile, join(throughLink, 'in-process.json')])
      await expect(startTestServer({ stateFile: path })).rejects.toThrow(
        `${path} is in use by another agent-console-mock server (this process holds ${path}.lock)`,
      )
  } finally {
    await first.close()
  }
})

it.runIf(process.platform === 'linux')(
  'starts right after a kill -9 whose server nobody reaped (a zombie), losing no acknowledged write',
  async () => {
    const stateFile = join(folder, 'zombie.json')
    const killed = await startUnreaped(argsFor(stateFile))
    try {
      for (const value of ['z1', 'z2', 'z3']) expect(await bulkAddTo(killed.url, [value])).toBe(201)
      process.kill(killed.pid, 'SIGKILL')
      await until(() => processState(killed.pid) === 'Z', 'the killed server is a zombie')
      const restarted = await startCli(argsFor(stateFile))
      const values = await storedValues(restarted.url)
      expect(processState(killed.pid), 'the old server is still a zombie').toBe('Z')
      expect(await restarted.stop()).toBe(0)
      expect(['z1', 'z2', 'z3'].filter((value) => !values.has(value))).toEqual([])
    } finally {
      killed.parent.kill('SIGKILL') // its zombie child goes to init, which reaps it
    }
  },
  120_000,
)

it('starts right after a kill -9 whose lock names another host (a container recreated on the volume)', async () => {
  const stateFile = join(folder, 'other-host.json')
  const killed = await startCli(argsFor(stateFile))
  for (const value of ['h1', 'h2']) expect(await bulkAddTo(killed.url, [value])).toBe(201)
  await killed.stop('SIGKILL')
  writeFileSync(`${stateFile}.lock`, JSON.stringify({ pid: killed.child.pid, start: '1', host: 'another-host' }))
  const restarted = await startCli(argsFor(stateFile))
  const values = await storedValues(restarted.url)
  expect(holderOf(stateFile).pid, 'the lock names its new holder').toBe(restarted.child.pid)
  expect(await restarted.stop()).toBe(0)
  expect(['h1', 'h2'].filter((value) => !values.has(value))).toEqual([])
}, 120_000)

it('takes a lock file nobody holds, whatever it says', async () => {
  for (const [name, content] of [
    ['foreign.json', 'not a lock'],
    ['live-pid.json', JSON.stringify({ pid: process.ppid, host: 'elsewhere' })],
  ] as const) {
    const stateFile = join(folder, name)
    writeFileSync(`${stateFile}.lock`, content)
    const running = await startTestServer({ stateFile })
    expect(holderOf(stateFile).pid, name).toBe(process.pid)
    await running.close()
  }
})
