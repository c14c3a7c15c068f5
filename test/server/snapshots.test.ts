/**
 * Snapshots (issue #15 part 4) over HTTP: take, restore, start a new session from one, export
 * and import as a state file, list and delete; and the refusals.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 31, personasPerTeam: 8 })
  call = http(running)
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const addValue = (value: string, headers: Record<string, string> = {}) =>
  call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    json: { values: [{ value }] },
    headers,
  })
const values = async (headers: Record<string, string> = {}) =>
  ((await call('/__mock/state', { headers })).json.world.values as Array<{ value: string }>).map((v) => v.value)
const session = (key: string, from?: string) => ({
  'x-mock-session': key,
  ...(from ? { 'x-mock-session-from': from } : {}),
})

it('restores a world to a snapshot, as often as asked, leaving the snapshot as it was', async () => {
  const headers = session('restorer')
  expect((await addValue('before', headers)).status).toBe(201)
  const taken = await call('/__mock/snapshots', { method: 'POST', json: { name: 'arranged' }, headers })
  expect(taken.status).toBe(201)
  expect(taken.json).toMatchObject({ name: 'arranged', seed: 31, personas_per_team: 8 })
  expect((await addValue('after', headers)).status).toBe(201)
  for (let round = 0; round < 2; round++) {
    const restored = await call('/__mock/snapshots/arranged/restore', { method: 'POST', headers })
    expect(restored.status).toBe(200)
    expect(restored.json.seed).toBe(31)
    const now = await values(headers)
    expect(now).toContain('before')
    expect(now).not.toContain('after')
    expect((await addValue(`round-${round}`, headers)).status).toBe(201)
  }
})

it('starts a new session from a snapshot taken in another, each writing only its own world', async () => {
  expect((await addValue('shared-start', session('origin'))).status).toBe(201)
  expect(
    (await call('/__mock/snapshots', { method: 'POST', json: { name: 'start' }, headers: session('origin') })).status,
  ).toBe(201)
  expect(await values(session('child-1', 'start'))).toContain('shared-start')
  expect((await addValue('only-child-1', session('child-1'))).status).toBe(201)
  expect(await values(session('child-2', 'start'))).not.toContain('only-child-1')
  expect(await values(session('origin'))).not.toContain('only-child-1')
  expect(await values(), 'the default world is untouched').not.toContain('shared-start')
})

it('exports a snapshot as a state file and imports one under another name', async () => {
  expect((await addValue('exported', session('exporter'))).status).toBe(201)
  await call('/__mock/snapshots', { method: 'POST', json: { name: 'to-file' }, headers: session('exporter') })
  const file = await call('/__mock/snapshots/to-file')
  expect(file.status).toBe(200)
  expect(file.json.world.values.map((v: { value: string }) => v.value)).toContain('exported')
  expect((await call('/__mock/snapshots/from-file', { method: 'PUT', body: file.text })).status).toBe(201)
  expect(await values(session('importer', 'from-file'))).toContain('exported')
  const listed = await call('/__mock/snapshots')
  expect(listed.json.snapshots.map((s: { name: string }) => s.name)).toEqual(
    expect.arrayContaining(['arranged', 'start', 'to-file', 'from-file']),
  )
})

it('refuses unknown snapshots, bad names, bad files and a snapshot without a session, changing nothing', async () => {
  const before = await values(session('refused'))
  const restore = await call('/__mock/snapshots/nope/restore', { method: 'POST', headers: session('refused') })
  expect(restore.status).toBe(404)
  expect(restore.json.detail).toMatch(/No snapshot named "nope".*POST \/__mock\/snapshots/)
  for (let i = 0; i < 25; i++) await call('/__mock/snapshots', { method: 'POST', json: { name: `many-${i}` } })
  const among = (await call('/__mock/snapshots/nope/restore', { method: 'POST' })).json.detail as string
  expect(among, 'the newest 20 names, not every one').toMatch(
    /; there are: [^:]*many-5, .*many-24 \(the newest 20 of \d+\): take one with POST/,
  )
  expect(among).not.toContain('many-4,')
  const badName = await call('/__mock/snapshots', { method: 'POST', json: { name: 'a b' } })
  expect(badName.status).toBe(400)
  expect((await call('/__mock/snapshots', { method: 'POST', json: {} })).status).toBe(400)
  const badFile = await call('/__mock/snapshots/broken', { method: 'PUT', body: '{"format": "nope"}' })
  expect(badFile.status).toBe(400)
  expect(badFile.json.detail).toMatch(/^Invalid state/)
  const fromUnknown = await call('/__mock/state', { headers: session('new-one', 'nope') })
  expect(fromUnknown.status).toBe(404)
  const sessions = (await call('/__mock/sessions')).json.sessions.map((s: { key: string }) => s.key)
  expect(sessions, 'a session that could not start is not kept').not.toContain('new-one')
  const noSession = await call('/__mock/state', { headers: { 'x-mock-session-from': 'arranged' } })
  expect(noSession.status).toBe(400)
  expect(await values(session('refused'))).toEqual(before)
  expect((await call('/__mock/snapshots/nope', { method: 'DELETE' })).status).toBe(404)
  expect((await call('/__mock/snapshots/from-file', { method: 'DELETE' })).status).toBe(204)
  expect((await call('/__mock/snapshots/from-file')).status).toBe(404)
})
