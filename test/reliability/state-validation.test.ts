import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

// PUT /__mock/state and state files take the bounds the options take, and no records that contradict each other.

let running: RunningServer
let call: ReturnType<typeof http>
let exported: string
let dir: string

beforeAll(async () => {
  running = await startTestServer({ seed: 44, personasPerTeam: 3, sessionLimit: 2 })
  call = http(running)
  // A real export, with 3 rules per policy (of up to 260) so that each import takes milliseconds.
  const state = (await call('/__mock/state')).json
  const kept = new Map<string, number>()
  state.world.rules = state.world.rules.filter(
    (rule: any) => kept.set(rule.policy_id, (kept.get(rule.policy_id) ?? 0) + 1).get(rule.policy_id)! <= 3,
  )
  exported = JSON.stringify(state)
  expect((await call('/__mock/state', { method: 'PUT', body: exported })).status).toBe(200)
  dir = await mkdtemp(join(tmpdir(), 'state-validation-'))
})
afterAll(async () => {
  await running.close()
  await rm(dir, { recursive: true, force: true })
})

/** The export with a change; `text` gets the result as JSON text, for what JSON.stringify cannot write. */
function edited(change: (state: any) => void, text = (json: string) => json): string {
  const state = JSON.parse(exported)
  change(state)
  return text(JSON.stringify(state))
}

/** PUT the state: 400 naming `problem` and nothing changed, or 200. */
async function put(body: string) {
  const before = await call('/__mock/state')
  const answer = await call('/__mock/state', { method: 'PUT', body })
  if (answer.status === 400) expect((await call('/__mock/state')).text).toBe(before.text)
  return answer
}

it('refuses personasPerTeam 10^12 (then reset, new sessions and their health checks answered 500)', async () => {
  const answer = await put(edited((state) => (state.personasPerTeam = 10 ** 12)))
  expect([answer.status, answer.json.detail]).toEqual([400, expect.stringMatching(/^Invalid state: .*personasPerTeam/)])
  expect((await call('/__mock/health', { headers: { 'x-mock-session': 'after-refusal' } })).status).toBe(200)
  expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(200)
})

it.each([
  ['personasPerTeam', -1],
  ['personasPerTeam', 100_001],
  ['personasPerTeam', 1.5],
  ['personasPerTeam', '3'],
  ['seed', 2 ** 53],
  ['seed', -(2 ** 53)],
  ['seed', 0.5],
])('refuses %s %j with 400', async (key, value) => {
  const answer = await put(edited((state) => (state[key] = value)))
  expect([answer.status, answer.json.detail]).toEqual([400, expect.stringContaining(key)])
})

it.each([
  ['personasPerTeam', 100_000],
  ['personasPerTeam', 0],
  ['seed', 2 ** 53 - 1],
  ['seed', -(2 ** 53 - 1)],
])('takes %s %j, the bounds of the options', async (key, value) => {
  expect((await put(edited((state) => (state[key] = value)))).status).toBe(200)
  // Not reset with 100,000 personas per team: the next test starts from the export again.
  expect((await put(exported)).status).toBe(200)
})

const first = (state: any, name: string) => state.world[name][0]
it.each([
  ['two teams with one id', (s: any) => s.world.teams.push({ ...first(s, 'teams') }), 'world.teams.3.id'],
  [
    'a persona of a team that does not exist',
    (s: any) => (first(s, 'personas').team_id = randomUUID()),
    'world.personas.0.team_id',
  ],
  [
    'a policy of a team that does not exist',
    (s: any) => (first(s, 'policies').team_id = randomUUID()),
    'world.policies.0.team_id',
  ],
  [
    'a rule of a policy that does not exist',
    (s: any) => (first(s, 'rules').policy_id = randomUUID()),
    'world.rules.0.policy_id',
  ],
  [
    'a value of a dimension that does not exist',
    (s: any) => (first(s, 'values').dimension_id = randomUUID()),
    'world.values.0.dimension_id',
  ],
  [
    'two rules with one id',
    (s: any) => s.world.rules.push({ ...first(s, 'rules'), rule_id: 'X-1' }),
    '.id: the id of world.rules.0',
  ],
  ['metadata that is a list', (s: any) => (first(s, 'values').value_metadata = []), 'world.values.0.value_metadata'],
])('refuses %s with 400 naming it', async (_, change, where) => {
  const answer = await put(edited(change))
  expect([answer.status, answer.json.detail]).toEqual([400, expect.stringContaining(where)])
})

it('refuses metadata holding NaN or infinity, which the API never stores', async () => {
  for (const literal of ['NaN', 'Infinity', '-Infinity', '1e400']) {
    const body = edited(
      (s) => (first(s, 'values').value_metadata = { a: [1, { b: 'here' }] }),
      (json) => json.replace('"here"', literal),
    )
    const answer = await put(body)
    expect([answer.status, answer.json.detail]).toEqual([400, expect.stringContaining('world.values.0.value_metadata')])
  }
})

it('takes a world without a team, its personas, policies and rules, and works with it', async () => {
  const answer = await put(
    edited((s) => {
      const gone = s.world.teams.shift().id
      const policies = new Set(s.world.policies.filter((p: any) => p.team_id === gone).map((p: any) => p.id))
      s.world.personas = s.world.personas.filter((p: any) => p.team_id !== gone)
      s.world.policies = s.world.policies.filter((p: any) => !policies.has(p.id))
      s.world.rules = s.world.rules.filter((r: any) => !policies.has(r.policy_id))
    }),
  )
  expect(answer.status).toBe(200)
  expect(
    (await call(`/v1/personas/?team_id=${answer.json.teams[0].id}`, { token: answer.json.tokens.super_admin })).status,
  ).toBe(200)
  expect((await put(exported)).status).toBe(200)
})

it('refuses to start from a state file holding personasPerTeam 10^12, saying why, the file untouched', async () => {
  const file = join(dir, 'state.json')
  const text = edited((state) => (state.personasPerTeam = 10 ** 12))
  await writeFile(file, text)
  await expect(startTestServer({ port: 0, stateFile: file })).rejects.toThrow(/state\.json.*personasPerTeam/s)
  expect(await readFile(file, 'utf8')).toBe(text)
})

it("takes a value twice in its dimension, as bulkDuplicates: 'store' stores it, and starts again on it", async () => {
  const stateFile = join(dir, 'store-duplicates.json')
  const start = () => startTestServer({ seed: 45, personasPerTeam: 2, stateFile, profile: { bulkDuplicates: 'store' } })
  const storing = await start()
  const store = http(storing)
  const { dimensions, tokens } = storing.sessions.primary.fixtures
  const added = await store(`/v1/demographics/${dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: tokens.super_admin,
    json: { values: [{ value: 'twice' }, { value: 'twice' }] },
  })
  expect(added.status, added.text).toBe(201)
  const exported = (await store('/__mock/state')).text
  expect((await store('/__mock/state', { method: 'PUT', body: exported })).status, 'its own export').toBe(200)
  await storing.close()
  const restarted = await start()
  const values = (await http(restarted)('/__mock/state')).json.world.values
  expect(values.filter((value: { value: string }) => value.value === 'twice')).toHaveLength(2)
  await restarted.close()
})
