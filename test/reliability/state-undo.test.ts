/**
 * A control change a state file cannot take is undone whole: what it arranged besides the records (the scenarios
 * selected, faults, the clock) goes back with them, so its 503 leaves the mock as it was before the request.
 * Writes fail the way any user meets: the state file's folder turned read-only, so the snapshot a reset or a
 * scenario needs cannot be written (no root or tmpfs needed; as root, the server runs as nobody, whom file
 * permissions bind).
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { CLI, type CliServer, startCli } from './support/cli.js'

const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
/** Whether nobody can reach the built CLI: a checkout under a 0700 folder (`mktemp -d`) is out of its reach. */
const cliReachable = () => {
  for (let path = dirname(CLI); path !== dirname(path); path = dirname(path))
    if (!(statSync(path).mode & 0o001)) return false
  return true
}
const runnable = process.platform !== 'win32' && (unprivileged.uid === undefined || cliReachable())

const root = mkdtempSync(join(tmpdir(), 'acm-reliability-undo-'))
chmodSync(root, 0o755)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const servers: CliServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL')
})

/** A server of its own state file, in a folder of its own the test can turn read-only. */
async function serverOnOwnFolder(name: string) {
  const folder = join(root, name)
  mkdirSync(folder)
  if (unprivileged.uid !== undefined) chownSync(folder, unprivileged.uid, unprivileged.gid!)
  const args = ['--port', '0', '--quiet', '--personas', '3', '--state-file', join(folder, 'state.json')]
  const server = await startCli(args, {}, unprivileged)
  servers.push(server)
  return {
    server,
    /** No new file in the folder: a snapshot (a reset's, a scenario's) cannot be written; `false`: it can again. */
    readOnly: (readOnly: boolean) => chmodSync(folder, readOnly ? 0o555 : 0o755),
  }
}

async function call(server: CliServer, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) }
}

type Fixtures = { seed: number; teams: Array<{ id: string }>; tokens: { super_admin: string } }

/** What a control change may change, as the control API and the API show it. */
async function arrangedState(server: CliServer) {
  const fixtures = (await call(server, 'GET', '/__mock/fixtures')).body as unknown as Fixtures
  const personas = await call(
    server,
    'GET',
    `/v1/personas/?team_id=${fixtures.teams[0]!.id}&limit=1`,
    undefined,
    fixtures.tokens.super_admin,
  )
  const clock = (await call(server, 'GET', '/__mock/clock')).body!
  return {
    seed: fixtures.seed,
    scenarios: (await call(server, 'GET', '/__mock/scenario')).body,
    faults: (await call(server, 'GET', '/__mock/faults')).body,
    // A running clock's time moves on between two looks: only a frozen one's is compared.
    clock: { now: clock.frozen ? clock.now : 'running', frozen: clock.frozen },
    personas: { status: personas.status, total: personas.body?.total },
  }
}

const ARRANGED_FAULTS = { operations: { list_policy_rules: { error: { status: 418, rate: 1 } } } }
const FROZEN_CLOCK = { now: '2030-01-01T00:00:00Z', frozen: true }

it.runIf(runnable)(
  'a scenario change the state file cannot take (503) leaves the scenarios, faults and records as before',
  async () => {
    const { server, readOnly } = await serverOnOwnFolder('scenario')
    expect((await call(server, 'PUT', '/__mock/scenario', { scenarios: ['policy-1000-rules'] })).status).toBe(200)
    expect((await call(server, 'PUT', '/__mock/faults', ARRANGED_FAULTS)).status).toBe(200)
    const before = await arrangedState(server)
    expect(before.scenarios).toEqual({ scenarios: ['policy-1000-rules'] })
    expect(before.personas.total).toBeGreaterThan(0)

    readOnly(true)
    const refused = await call(server, 'PUT', '/__mock/scenario', {
      scenarios: ['empty-team', 'slow', 'forbidden-user'],
    })
    expect(refused.status).toBe(503)
    expect(refused.body?.detail).toMatch(/could not be written to the state file .*so it was undone/)
    expect(await arrangedState(server), 'scenario list, faults, clock and records as before').toEqual(before)

    readOnly(false)
    expect((await call(server, 'PUT', '/__mock/scenario', { scenarios: ['slow'] })).status, 'writable again').toBe(200)
    expect((await call(server, 'GET', '/__mock/scenario')).body).toEqual({ scenarios: ['slow'] })
  },
  60_000,
)

it.runIf(runnable)(
  'a reset the state file cannot take (503) leaves the faults, the clock and the scenarios as before',
  async () => {
    const { server, readOnly } = await serverOnOwnFolder('reset')
    expect((await call(server, 'PUT', '/__mock/scenario', { scenarios: ['policy-1000-rules'] })).status).toBe(200)
    expect((await call(server, 'PUT', '/__mock/faults', ARRANGED_FAULTS)).status).toBe(200)
    expect((await call(server, 'PUT', '/__mock/clock', FROZEN_CLOCK)).status).toBe(200)
    const before = await arrangedState(server)
    expect(before.clock).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true })

    readOnly(true)
    const refused = await call(server, 'POST', '/__mock/reset', { seed: 77 })
    expect(refused.status).toBe(503)
    expect(await arrangedState(server), 'faults, clock, scenario list and world as before').toEqual(before)

    readOnly(false)
    expect((await call(server, 'POST', '/__mock/reset', {})).status, 'writable again').toBe(200)
    expect((await arrangedState(server)).faults).toEqual({})
  },
  60_000,
)
