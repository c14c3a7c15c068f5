import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, loggedErrors, startTestServer } from '../support/server.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-log-'))
const stateFile = join(folder, 'live', 'state.json')
let running: RunningServer
/** The values the live server adds: one before its first snapshot, then one a flush. */
const ALL_VALUES = ['snapshot', 'one', 'two', 'three', 'four', 'five']
/** The state file and its log as a kill -9 left them after five bulk adds (one line each), copied per test. */
let snapshot: string
let log: string

beforeAll(async () => {
  mkdirSync(join(folder, 'live'))
  running = await startTestServer({ seed: 21, personasPerTeam: 2, stateFile })
  for (const name of ALL_VALUES) await add(running, name)
  snapshot = readFileSync(stateFile, 'utf8')
  log = readFileSync(`${stateFile}.log`, 'utf8')
})
afterAll(async () => {
  await running.close()
  rmSync(folder, { recursive: true, force: true })
})

async function add(server: RunningServer, value: string) {
  const { fixtures } = server.sessions.primary
  const answer = await http(server)(`/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: fixtures.tokens.super_admin,
    json: { values: [{ value }] },
  })
  expect(answer.status).toBe(201)
}

/** Writes a state file and a log into a folder of their own. */
function files(name: string, state: string | undefined, logText: string): string {
  mkdirSync(join(folder, name))
  const path = join(folder, name, 'state.json')
  if (state !== undefined) writeFileSync(path, state)
  writeFileSync(`${path}.log`, logText)
  return path
}

/** A log line as the server writes it at `position` (0: the header): `<sha256/16 of position, flush, json> <flush> <json>`. */
const line = (position: number, flush: number, json: string) =>
  `${createHash('sha256').update(`${position} ${flush} ${json}`).digest('hex').slice(0, 16)} ${flush} ${json}\n`

async function valuesAfterStart(path: string): Promise<string[]> {
  const server = await startTestServer({ stateFile: path })
  const values = server.sessions.primary.world.values.all().map((v) => v.value)
  await server.close()
  return ALL_VALUES.filter((name) => values.includes(name))
}

it('replays the log over the snapshot, and drops the last flush when a kill cut it short', async () => {
  expect(await valuesAfterStart(files('whole', snapshot, log))).toEqual(ALL_VALUES)
  for (const cut of [1, 20, 60]) {
    const path = files(`cut-${cut}`, snapshot, log.slice(0, log.length - cut))
    loggedErrors.length = 0
    expect(await valuesAfterStart(path), `the last ${cut} bytes cut`).toEqual([
      'snapshot',
      'one',
      'two',
      'three',
      'four',
    ])
    expect(loggedErrors.join(), 'the drop is reported').toContain(
      `dropped 1 line(s) of a write cut short (never answered); the log as found is kept in ${path}.log.torn`,
    )
    expect(readFileSync(`${path}.log.torn`, 'utf8'), 'kept aside before the start rewrote it').toBe(
      log.slice(0, log.length - cut),
    )
    expect(
      readFileSync(`${path}.log`, 'utf8').split('\n'),
      'compacted at start: the log holds its header',
    ).toHaveLength(2)
  }
  const zeros = files('zeros', snapshot, `${log}${'\0'.repeat(300)}`)
  expect(await valuesAfterStart(zeros), 'a tail of zeros (space given, never written)').toHaveLength(6)
})

it('refuses a log damaged before its last flush, and leaves both files as they were', async () => {
  const lines = log.split('\n')
  lines[2] = lines[2]!.replace('"two"', '"tw0"')
  const path = files('damaged', snapshot, lines.join('\n'))
  await expect(startTestServer({ stateFile: path })).rejects.toThrow(
    `${path}.log is damaged: line 3 is damaged, and line 4 was written after it. It was left untouched`,
  )
  expect(readFileSync(`${path}.log`, 'utf8')).toBe(lines.join('\n'))
  expect(readFileSync(path, 'utf8')).toBe(snapshot)
})

it('refuses a log with a line repeated, removed or moved inside a flush of several lines', async () => {
  // The five changes as one server writes them when they come at once: flushes of two lines share a number.
  const jsons = log
    .split('\n')
    .slice(0, 6)
    .map((text) => text.split(' ').slice(2).join(' '))
  const flushes = [0, 1, 2, 2, 3, 3]
  const whole = jsons.map((json, position) => line(position, flushes[position]!, json))
  expect(await valuesAfterStart(files('shared-flushes', snapshot, whole.join('')))).toEqual(ALL_VALUES)
  // Each line's checksum and flush number still hold where it was written: only its place in the log tells.
  for (const [name, order] of [
    ['repeated', [0, 1, 2, 2, 3, 4, 5]],
    ['removed', [0, 1, 3, 4, 5]],
    ['moved', [0, 1, 3, 2, 4, 5]],
  ] as const) {
    const edited = order.map((at) => whole[at]).join('')
    const path = files(`inside-flush-${name}`, snapshot, edited)
    await expect(startTestServer({ stateFile: path }), name).rejects.toThrow(`${path}.log is damaged: line`)
    expect(readFileSync(`${path}.log`, 'utf8'), name).toBe(edited)
  }
})

it('reads a log of version 1 (no position in its checksums), and goes on in it until the next snapshot', async () => {
  const lineV1 = (flush: number, json: string) =>
    `${createHash('sha256').update(`${flush} ${json}`).digest('hex').slice(0, 16)} ${flush} ${json}\n`
  const jsons = log
    .split('\n')
    .slice(0, 6)
    .map((text) => text.split(' ').slice(2).join(' '))
  jsons[0] = jsons[0]!.replace('"version":2', '"version":1')
  const written = jsons.map((json, index) => lineV1(index, json)).join('')
  expect(await valuesAfterStart(files('version-1', snapshot, written))).toHaveLength(6)
  // Its header alone: no replay, so no snapshot at start; a change is appended in version 1, and read back.
  const path = files('version-1-header', snapshot, lineV1(0, jsons[0]!))
  const server = await startTestServer({ stateFile: path })
  await add(server, 'appended')
  const copy = files('version-1-copy', readFileSync(path, 'utf8'), readFileSync(`${path}.log`, 'utf8'))
  await server.close()
  const restarted = await startTestServer({ stateFile: copy })
  expect(restarted.sessions.primary.world.values.all().map((v) => v.value)).toContain('appended')
  await restarted.close()
})

it('refuses a log whose answered flushes are damaged, or converted to CRLF, and leaves both files as they were', async () => {
  // `sed -i '3,6s/"stored"/"storeD"/'`: the lines of four flushes, each answered before the next.
  const storeD = log
    .split('\n')
    .map((text, index) => (index >= 2 && index <= 5 ? text.replace('"stored"', '"storeD"') : text))
    .join('\n')
  const lines = log.split('\n')
  // Whole lines, each as it was written: one removed (`sed -i 3d`), two swapped. Each line's checksum covers its
  // place in the log, so the first line out of place shows.
  const removed = lines.filter((_, index) => index !== 2).join('\n')
  const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n')
  for (const [name, text, reason] of [
    ['storeD', storeD, 'line 3 is damaged, and line 4 was written after it'],
    ['removed', removed, 'line 3 is damaged, and belongs to flush 3, not the last one'],
    ['swapped', swapped, 'line 2 is damaged, and belongs to flush 2, not the last one'],
    // `sed -i '6s/"five"/"fivE"/'`: the last flush, whole and ended by its newline, changed after it was answered.
    [
      'last-changed',
      log.replace('"five"', '"fivE"'),
      'line 6 is whole, but does not match its checksum: it was changed, or moved within the log, after it was written',
    ],
    [
      'crlf',
      log.replaceAll('\n', '\r\n'),
      'line 1 is damaged, and line 2 was written after it (its lines end in \\r\\n',
    ],
  ] as const) {
    const path = files(name, snapshot, text)
    await expect(startTestServer({ stateFile: path })).rejects.toThrow(`${path}.log is damaged: ${reason}`)
    expect(readFileSync(`${path}.log`, 'utf8'), name).toBe(text)
    expect(readFileSync(path, 'utf8'), name).toBe(snapshot)
  }
})

it('refuses a log that follows another state file, or none; ignores one a finished compaction left', async () => {
  const other = files('other', snapshot.replace('"seed":21', '"seed":22'), log)
  await expect(startTestServer({ stateFile: other })).rejects.toThrow(
    `${other}.log holds 5 changes made after another version of ${other}, not this one: ${other} was changed since`,
  )
  // After a compaction the log is its header alone, naming the snapshot: a byte changed in the snapshot shows.
  const header = log.split('\n')[0]!
  const edited = files('edited', snapshot.replace('"seed":21', '"seed":23'), `${header}\n`)
  await expect(startTestServer({ stateFile: edited })).rejects.toThrow(
    `${edited}.log was started after another version of ${edited}, not this one: ${edited} was changed since`,
  )
  expect(await valuesAfterStart(files('header-only', snapshot, `${header}\n`)), 'its own snapshot').toEqual([
    'snapshot',
  ])
  const orphan = files('orphan', undefined, log)
  await expect(startTestServer({ stateFile: orphan })).rejects.toThrow(
    `${orphan}.log holds 5 changes, but ${orphan}, the state they follow, is missing.`,
  )
  // A clean stop leaves the header alone: the state file it names is gone, not never written (it started silently).
  const headerOnly = files('orphan-header', undefined, `${header}\n`)
  await expect(startTestServer({ stateFile: headerOnly })).rejects.toThrow(
    `${headerOnly}.log follows ${headerOnly}, which is missing. It was left untouched: restore ${headerOnly}`,
  )
  // A kill between a compaction's rename and the log's new start: the log names the new snapshot.
  await running.persistence!.flush()
  const compacted = readFileSync(stateFile, 'utf8')
  const base = createHash('sha256').update(compacted).digest('hex').slice(0, 16)
  const path = files('compacted', compacted, log + line(6, 6, JSON.stringify({ checkpoint: base })))
  expect(await valuesAfterStart(path), 'its changes are in the snapshot, none twice').toHaveLength(6)
  const server = await startTestServer({ stateFile: path })
  expect(server.sessions.primary.world.values.all().filter((v) => v.value === 'five')).toHaveLength(1)
  await server.close()
})
