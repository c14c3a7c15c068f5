import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, loggedErrors, startTestServer } from '../support/server.js'
import { fiftyParallelBulkAdds, resetsWhileReading } from './support/concurrency.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-concurrency-'))
const stateFile = join(folder, 'state.json')
let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 37, personasPerTeam: 20, stateFile })
  call = http(running)
})
afterAll(async () => {
  await running.close()
  rmSync(folder, { recursive: true, force: true })
})

const fixtures = () => running.sessions.primary.fixtures
const bulkPath = () => `/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`
const session = (key?: string): Record<string, string> => (key ? { 'x-mock-session': key } : {})
const bulkAdd = (body: string, key?: string) =>
  call(bulkPath(), {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    body,
    headers: { 'content-type': 'application/json', ...session(key) },
  })
const storedIn = () =>
  running.sessions.primary.world.values.all().filter((v) => v.dimension_id === fixtures().dimensions[0]!.id)

it('loses no value and duplicates none under 50 parallel bulk adds over HTTP, and the state file holds them all', async () => {
  await fiftyParallelBulkAdds({ bulkAdd: (body) => bulkAdd(body), stored: storedIn }, 'http')
  await running.persistence!.flush()
  const persisted = (JSON.parse(readFileSync(stateFile, 'utf8')).world.values as Array<{ value: string }>).map(
    (v) => v.value,
  )
  expect(persisted.sort()).toEqual(
    running.sessions.primary.world.values
      .all()
      .map((v) => v.value)
      .sort(),
  )
})

it('does the same in a session, while the default world stays as it was', async () => {
  const untouched = running.sessions.primary.world.values.all().length
  const { world } = await running.sessions.instance('parallel-session')
  await fiftyParallelBulkAdds(
    {
      bulkAdd: (body) => bulkAdd(body, 'parallel-session'),
      stored: () => world.values.all().filter((v) => v.dimension_id === fixtures().dimensions[0]!.id),
    },
    'session',
  )
  expect(running.sessions.primary.world.values.all()).toHaveLength(untouched)
})

it('never answers from a half-seeded world while POST /__mock/reset runs over HTTP', async () => {
  const total = async (path: string) => {
    const answer = await call(path, { token: fixtures().tokens.team_reader })
    return { status: answer.status, total: answer.json?.total as number | undefined }
  }
  const stats = await resetsWhileReading(
    {
      reset: (personas) => call('/__mock/reset', { method: 'POST', json: { personas } }),
      personaTotal: () => total('/v1/personas/?limit=1'),
      ruleTotal: () => total(`/v1/policies/${fixtures().policies[0]!.id}/rules?limit=1`),
      bulkAdd: (values) => bulkAdd(JSON.stringify({ values: values.map((value) => ({ value })) })),
      storedValues: async () => storedIn().map((v) => v.value),
    },
    [20, 45],
    260,
  )
  expect(stats.reads).toBeGreaterThan(60)
  await running.persistence!.flush()
  const persisted = JSON.parse(readFileSync(stateFile, 'utf8'))
  expect(persisted.world.personas.length, 'the state file holds a whole seeded world').toBe(
    2 * persisted.personasPerTeam,
  )
  expect(loggedErrors).toEqual([])
})
