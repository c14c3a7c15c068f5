/** `agent-console-mock proxy` as it ships (dist/): options, start line and log, and --profile reaching the judge. */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { startMock } from '../contract/support/mock.js'

const cli = resolve(import.meta.dirname, '../../dist/server/cli.js')
const folder = mkdtempSync(join(tmpdir(), 'acm-proxy-'))
let mock: RunningServer
beforeAll(async () => void (mock = await startMock()))
afterAll(async () => {
  await mock?.close()
  rmSync(folder, { recursive: true, force: true })
})

/** Starts the proxy command and waits for its start line (a hang guard of 20 s, not a bound on start-up time). */
async function startCli(args: string[]) {
  const child = spawn(process.execPath, [cli, 'proxy', ...args])
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within 20 s:\n${output}`)), 20_000)
    child.stdout.on('data', () => {
      const match = /agent-console-mock proxy: (http:\/\/\S+) ->/.exec(output)
      if (match) resolvePromise(match[1]!)
      if (match) clearTimeout(timer)
    })
  })
  const stop = () =>
    new Promise<number | null>((resolvePromise) => {
      child.once('close', resolvePromise)
      child.kill('SIGTERM')
    })
  const kill = () =>
    new Promise<NodeJS.Signals | null>((resolvePromise) => {
      child.once('close', (_code, signal) => resolvePromise(signal))
      child.kill('SIGKILL')
    })
  return { url, stop, kill, output: () => output }
}

it('lists its options, and refuses to start without a target', () => {
  const help = spawnSync(process.execPath, [cli, 'proxy', '--help'], { encoding: 'utf8', timeout: 20_000 })
  for (const option of [
    '--target',
    '--port',
    '--host',
    '--profile',
    '--allow-origin',
    '--control-token',
    '--record',
    '--max-body-bytes',
    '--quiet',
  ])
    expect(help.stdout).toContain(option)
  const missing = spawnSync(process.execPath, [cli, 'proxy', '--port', '0'], { encoding: 'utf8', timeout: 20_000 })
  expect(missing.status).not.toBe(0)
  expect(missing.stderr).toContain('--target')
})

it('forwards, logs each exchange, and judges with the --profile given', async () => {
  const profile = join(folder, 'profile.json')
  writeFileSync(profile, JSON.stringify({ rulesPaging: { limit: 'page_size', offset: 'start', defaultLimit: 100 } }))
  const record = join(folder, 'contract.json')
  const proxy = await startCli(['--target', mock.url, '--port', '0', '--profile', profile, '--record', record])
  try {
    const { fixtures } = mock.sessions.primary
    const headers = { authorization: `Bearer ${fixtures.tokens.team_reader}` }
    // limit=3 is no paging parameter for this profile's server: 3 rules where it would send a full page.
    const rules = await fetch(`${proxy.url}/v1/policies/${fixtures.policies[0]!.id}/rules?limit=3`, { headers })
    expect(rules.status).toBe(200)
    expect(rules.headers.get('x-contract-violations')).toBe('paging.page-size')
    const personas = await fetch(`${proxy.url}/v1/personas/?limit=3`, { headers })
    expect([personas.status, personas.headers.get('x-contract-violations')]).toEqual([200, null])
    await personas.arrayBuffer()
    await rules.arrayBuffer()
  } finally {
    expect(await proxy.stop()).toBe(0)
  }
  expect(proxy.output()).toMatch(/GET \/v1\/policies\/\S+\/rules\?limit=3 -> 200 {2}VIOLATES paging.page-size/)
  expect(proxy.output()).toContain('GET /v1/personas/?limit=3 -> 200\n')
  const contract = JSON.parse(readFileSync(record, 'utf8'))
  expect(
    contract.interactions.map((item: { operation: string }) => item.operation),
    'written on SIGTERM',
  ).toEqual(['list_policy_rules', 'list_personas'])
})

it('keeps the recorded contract on disk as it goes: a kill -9 leaves a whole contract', async () => {
  const record = join(folder, 'killed.contract.json')
  const proxy = await startCli(['--target', mock.url, '--port', '0', '--record', record])
  try {
    const { fixtures } = mock.sessions.primary
    const headers = { authorization: `Bearer ${fixtures.tokens.team_reader}` }
    await (await fetch(`${proxy.url}/v1/personas/?limit=2`, { headers })).arrayBuffer()
    await (await fetch(`${proxy.url}/v1/policies/${fixtures.policies[0]!.id}/rules`, { headers })).arrayBuffer()
    // Written within a second of the traffic: asked for until it holds both (the test's timeout bounds it).
    await vi.waitFor(
      () => {
        const contract = JSON.parse(readFileSync(record, 'utf8'))
        expect(contract.interactions).toHaveLength(2)
      },
      { timeout: 20_000, interval: 50 },
    )
  } finally {
    expect(await proxy.kill()).toBe('SIGKILL')
  }
  const contract = JSON.parse(readFileSync(record, 'utf8'))
  expect(contract.interactions.map((item: { operation: string }) => item.operation)).toEqual([
    'list_personas',
    'list_policy_rules',
  ])
}, 90_000)
