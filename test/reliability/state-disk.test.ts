import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { CLI, type CliServer, runCli, startCli } from './support/cli.js'
import { mountTmpfs, type Tmpfs, tmpfsAvailable } from './support/tmpfs.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-disk-'))
chmodSync(folder, 0o755)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

type Fixtures = { seed: number; dimensions: Array<{ id: string }>; tokens: { super_admin: string } }
const get = async (server: CliServer, path: string) => (await fetch(server.url + path)).json()
const valuesOf = async (server: CliServer) =>
  new Set(
    ((await get(server, '/__mock/state')) as { world: { values: Array<{ value: string }> } }).world.values.map(
      (v) => v.value,
    ),
  )

const fixturesOf = new WeakMap<CliServer, Fixtures>()

/**
 * A bulk add of 40 values of ~150 characters: its log line needs new pages of a full disk. The
 * fixtures are read once per server: a read answered while a change fails is refused too (it could show it).
 */
async function add(server: CliServer, name: string): Promise<{ status: number; detail?: string }> {
  if (!fixturesOf.has(server)) fixturesOf.set(server, (await get(server, '/__mock/fixtures')) as Fixtures)
  const fixtures = fixturesOf.get(server)!
  const res = await fetch(`${server.url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      values: Array.from({ length: 40 }, (_, i) => ({ value: `${name}-${i}-${'v'.repeat(140)}` })),
    }),
  })
  const body = (await res.json()) as { detail?: string }
  return { status: res.status, detail: res.status === 503 ? body.detail : undefined }
}
const has = (values: Set<string>, name: string) => values.has(`${name}-0-${'v'.repeat(140)}`)

/** A 2 MB tmpfs, a state file on it, and the CLI's arguments to keep its state there. */
function serverOnSmallDisk() {
  const disk = mountTmpfs('2m')
  const stateFile = join(disk.path, 'state.json')
  return { disk, stateFile, args: ['--port', '0', '--quiet', '--personas', '2', '--state-file', stateFile] }
}

// Root ignores file permissions: the CLI then runs as nobody to meet a read-only file or folder.
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
/** Whether nobody can reach the built CLI: a checkout under a 0700 folder (`mktemp -d`) is out of its reach. */
const cliReachable = () => {
  for (let path = dirname(CLI); path !== dirname(path); path = dirname(path))
    if (!(statSync(path).mode & 0o001)) return false
  return true
}

it.skipIf(unprivileged.uid !== undefined && !cliReachable())(
  'refuses to start on a read-only state file or folder, saying so, and exits non-zero',
  async () => {
    const owned = join(folder, 'owned')
    mkdirSync(owned)
    if (unprivileged.uid !== undefined) chownSync(owned, unprivileged.uid, unprivileged.gid!)
    const stateFile = join(owned, 'state.json')
    writeFileSync(stateFile, '{}')
    if (unprivileged.uid !== undefined) chownSync(stateFile, unprivileged.uid, unprivileged.gid!)
    chmodSync(stateFile, 0o444)
    const file = await runCli(['--port', '0', '--state-file', stateFile], {}, unprivileged)
    expect(file.code).toBe(1)
    expect(file.output).toContain(`${stateFile} cannot be written: EACCES`)
    expect(file.output).toMatch(
      /the server does not start: make it and its folder writable, or pass another --state-file/,
    )
    chmodSync(stateFile, 0o644)
    chmodSync(owned, 0o555)
    const fresh = join(owned, 'fresh.json')
    const folderRefused = await runCli(['--port', '0', '--state-file', fresh], {}, unprivileged)
    chmodSync(owned, 0o755)
    expect(folderRefused.code).toBe(1)
    expect(folderRefused.output).toContain(`${fresh} cannot be written: EACCES`)
  },
)

it.runIf(tmpfsAvailable)('refuses to start on a read-only file system', async () => {
  const disk = mountTmpfs('1m')
  try {
    const stateFile = join(disk.path, 'state.json')
    writeFileSync(stateFile, '{}')
    disk.remount(false)
    const refused = await runCli(['--port', '0', '--state-file', stateFile])
    expect(refused.code).toBe(1)
    expect(refused.output).toContain(`${stateFile} cannot be written: EROFS: read-only file system`)
  } finally {
    disk.dispose()
  }
})

it.runIf(tmpfsAvailable)(
  'refuses (503) a change the disk cannot take, keeps it out of the world, loses nothing answered, and exits 1',
  async () => {
    let disk: Tmpfs | undefined = mountTmpfs('2m')
    const args = ['--port', '0', '--quiet', '--personas', '2', '--state-file', join(disk.path, 'state.json')]
    let server = await startCli(args)
    try {
      expect((await add(server, 'first')).status, 'the first change writes the state file').toBe(201)
      expect((await add(server, 'second')).status, 'the next ones go to its log').toBe(201)
      const seed = ((await get(server, '/__mock/fixtures')) as Fixtures).seed
      disk.fill()
      const full = await add(server, 'full')
      expect(full.status).toBe(503)
      expect(full.detail).toMatch(/could not be written to the state file .*ENOSPC.*so it was undone.*Free space/)
      const atOnce = await Promise.all(Array.from({ length: 8 }, (_, i) => add(server, `at-once-${i}`)))
      expect(atOnce.map((answer) => answer.status)).toEqual(atOnce.map(() => 503))
      const reset = await fetch(`${server.url}/__mock/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"seed": 77}',
      })
      expect(reset.status, 'a reset needs a whole snapshot: refused too').toBe(503)
      expect(((await get(server, '/__mock/fixtures')) as Fixtures).seed, 'the reset was undone').toBe(seed)
      let values = await valuesOf(server)
      expect(['first', 'second', 'full', 'at-once-0'].map((name) => has(values, name))).toEqual([
        true,
        true,
        false,
        false,
      ])

      disk.release()
      expect((await add(server, 'space again')).status, 'with space again, changes are kept again').toBe(201)

      expect(await server.stop('SIGTERM'), 'a stop after refused changes exits non-zero').toBe(1)
      expect(server.output()).toMatch(/10 change\(s\) could not be written to .* during this run .*answered 503/)
      server = await startCli(args)
      values = await valuesOf(server)
      const kept = ['first', 'second', 'space again']
      expect(
        kept.filter((name) => !has(values, name)),
        'answered 201, kept',
      ).toEqual([])
      const refused = ['full', 'at-once-3']
      expect(
        refused.filter((name) => has(values, name)),
        'answered 503, not kept',
      ).toEqual([])
      expect(await server.stop('SIGTERM'), 'a run without refusals exits 0').toBe(0)
    } finally {
      await server.stop('SIGKILL')
      disk?.dispose()
      disk = undefined
    }
  },
  120_000,
)

it.runIf(tmpfsAvailable)(
  'refuses to start when the disk is too full to compact the log, naming the file and what to do; loses nothing',
  async () => {
    const { disk, stateFile, args } = serverOnSmallDisk()
    try {
      const killed = await startCli(args)
      for (const name of ['snapshot', 'logged-1', 'logged-2']) expect((await add(killed, name)).status).toBe(201)
      await killed.stop('SIGKILL')
      disk.fill()
      const refused = await runCli(args)
      expect(refused.code).toBe(1)
      expect(refused.output).toContain(
        `${stateFile} cannot be written: compacting ${stateFile}.log into it at start failed ` +
          '(ENOSPC: no space left on device, write). Every change is kept in it and in <file>.log, ' +
          'so the server does not start: free space on its disk, or pass another --state-file.',
      )
      disk.release()
      const restarted = await startCli(args)
      const values = await valuesOf(restarted)
      expect(await restarted.stop()).toBe(0)
      expect(['snapshot', 'logged-1', 'logged-2'].filter((name) => !has(values, name))).toEqual([])
    } finally {
      disk.dispose()
    }
  },
  120_000,
)

it.runIf(tmpfsAvailable)(
  'keeps changes the log has room for when a compaction does not fit on the disk, and compacts once it does',
  async () => {
    const { disk, args } = serverOnSmallDisk()
    // Every flush past the first asks for a compaction: a snapshot of the whole state, ~20 times a bulk add's line.
    const env = { AGENT_CONSOLE_MOCK_COMPACT_AT: '1' }
    let server = await startCli(args, env)
    try {
      expect((await add(server, 'snapshot')).status).toBe(201)
      expect((await add(server, 'logged')).status).toBe(201)
      disk.fill(64 * 1024)
      const added = await Promise.all(['small-1', 'small-2'].map((name) => add(server, name)))
      expect(
        added.map((answer) => answer.status),
        'the log takes them though no snapshot fits',
      ).toEqual([201, 201])
      // The compaction is tried after the flush that asked for it: its report may follow the answers.
      await vi.waitFor(() => expect(server.output()).toMatch(/Could not compact .*state\.json; its changes go on/), {
        timeout: 20_000,
      })
      disk.release()
      expect((await add(server, 'space again')).status).toBe(201)
      expect(await server.stop('SIGKILL')).not.toBe(0)
      server = await startCli(args)
      const values = await valuesOf(server)
      expect(['snapshot', 'logged', 'small-1', 'small-2', 'space again'].filter((name) => !has(values, name))).toEqual(
        [],
      )
    } finally {
      await server.stop('SIGKILL')
      disk.dispose()
    }
  },
  120_000,
)
