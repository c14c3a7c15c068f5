import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { runCli, startCli } from './support/cli.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-lock-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const holderOf = (stateFile: string) => JSON.parse(readFileSync(`${stateFile}.lock`, 'utf8')) as { pid: number }

it('refuses a second server on the same state file, naming the process that holds it; the first goes on', async () => {
  const stateFile = join(folder, 'shared.json')
  const args = ['--port', '0', '--quiet', '--personas', '2', '--state-file', stateFile]
  const first = await startCli(args)
  try {
    const fixtures = (await (await fetch(`${first.url}/__mock/fixtures`)).json()) as {
      dimensions: Array<{ id: string }>
      tokens: { super_admin: string }
    }
    const second = await runCli(args)
    expect(second.code).toBe(1)
    expect(second.output).toContain(
      `${stateFile} is in use by another agent-console-mock server ` +
        `(process ${first.child.pid} holds ${stateFile}.lock). Stop that server first, or pass another --state-file.`,
    )
    const added = await fetch(`${first.url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body: '{"values": [{"value": "after the refusal"}]}',
    })
    expect(added.status, 'the first server still keeps its changes').toBe(201)
    expect(holderOf(stateFile).pid).toBe(first.child.pid)
  } finally {
    expect(await first.stop()).toBe(0)
  }
  const third = await startCli(args)
  const state = await (await fetch(`${third.url}/__mock/state`)).text()
  expect(await third.stop()).toBe(0)
  expect(state, 'once the first stopped, the file is free, and whole').toContain('after the refusal')
})

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

it('takes over the lock of a process that is gone, or of an id now given to another process', async () => {
  // A process that has ended: its id is free (the lock a kill -9 leaves behind).
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  for (const [name, holder] of [
    ['dead.json', { pid: Number(gone.stdout.trim()), start: '1', host: hostname() }],
    // A live process (this one's parent) that started at another time than the lock says: a reused id.
    ['reused.json', { pid: process.ppid, start: '1', host: hostname() }],
  ] as const) {
    const stateFile = join(folder, name)
    writeFileSync(`${stateFile}.lock`, JSON.stringify(holder))
    const running = await startTestServer({ stateFile })
    expect(holderOf(stateFile).pid, name).toBe(process.pid)
    await running.close()
  }
})

it('refuses a lock file it did not write, and one held on another host, saying what to do', async () => {
  for (const [name, content, message] of [
    ['foreign.json', 'not a lock', 'is not a lock of agent-console-mock: remove it if no server uses'],
    ['remote.json', JSON.stringify({ pid: 1, start: null, host: 'another-host' }), '(process 1 on another-host holds'],
  ] as const) {
    const stateFile = join(folder, name)
    writeFileSync(`${stateFile}.lock`, content)
    await expect(startTestServer({ stateFile })).rejects.toThrow(message)
    expect(readFileSync(`${stateFile}.lock`, 'utf8'), 'left as it was').toBe(content)
  }
})
