import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, loggedErrors, startTestServer } from '../support/server.js'

const JSON_BODY = { 'content-type': 'application/json' }

const folder = mkdtempSync(join(tmpdir(), 'acm-prototype-'))
const stateFile = join(folder, 'state.json')
let running: RunningServer
let call: ReturnType<typeof http>

/** What every object inherits: nothing may be added to it. */
const inherited = () =>
  [Object.prototype, Array.prototype, Function.prototype, Map.prototype].map((proto) =>
    Object.getOwnPropertyNames(proto).sort().join(),
  )
const pristine = inherited()

beforeAll(async () => {
  running = await startTestServer({ seed: 42, personasPerTeam: 3, stateFile })
  call = http(running)
})
afterEach(() => {
  expect(inherited(), 'no prototype gained a property').toEqual(pristine)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(({} as Record<string, unknown>).is_super_admin).toBeUndefined()
})
afterAll(async () => {
  await running.close()
  rmSync(folder, { recursive: true, force: true })
})

const fixtures = () => running.sessions.primary.fixtures
const bulkAdd = (body: string) =>
  call(`/v1/demographics/${fixtures().dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: fixtures().tokens.super_admin,
    body,
    headers: { 'content-type': 'application/json' },
  })

const METADATA =
  '{"__proto__":{"polluted":true,"is_super_admin":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},"nested":[{"__proto__":{"polluted":1}},{"constructor":"x"}],"toString":"not a function","hasOwnProperty":1}'

it('stores metadata keys __proto__, constructor and prototype as plain data, and answers them back as sent', async () => {
  const added = await bulkAdd(`{"values":[{"value":"proto-keys","metadata":${METADATA}}]}`)
  expect(added.status).toBe(201)
  expect(added.text).toContain(`"value_metadata":${METADATA}`)
  const state = await call('/__mock/state')
  expect(state.text).toContain(`"value_metadata":${METADATA}`)
})

it('keeps them through the state file and a restart', async () => {
  await running.persistence!.flush()
  expect(readFileSync(stateFile, 'utf8')).toContain(`"value_metadata":${METADATA}`)
  await running.close()
  running = await startTestServer({ stateFile })
  call = http(running)
  expect((await call('/__mock/state')).text).toContain(`"value_metadata":${METADATA}`)
})

it('keeps them through PUT /__mock/state', async () => {
  const exported = await call('/__mock/state')
  await call('/__mock/reset', { method: 'POST' })
  expect((await call('/__mock/state', { method: 'PUT', body: exported.text, headers: JSON_BODY })).status).toBe(200)
  expect((await call('/__mock/state')).text).toBe(exported.text)
})

it('takes __proto__, constructor and prototype as values and display names, and skips them when repeated', async () => {
  const names = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']
  const first = await bulkAdd(
    JSON.stringify({ values: names.map((value) => ({ value, display_name: 'constructor' })) }),
  )
  expect([first.status, first.json.map((v: { value: string }) => v.value)]).toEqual([201, names])
  const again = await bulkAdd(JSON.stringify({ values: names.map((value) => ({ value })) }))
  expect([again.status, again.text]).toEqual([201, '[]'])
})

it('reads query parameters named __proto__ or constructor as any other unknown parameter', async () => {
  const listed = await call('/v1/personas/?__proto__=1&constructor=2&hasOwnProperty=3&limit=1&__proto__%5Blimit%5D=5', {
    token: fixtures().tokens.team_reader,
  })
  expect([listed.status, listed.json.results.length]).toEqual([200, 1])
})

it('signs no power into a token minted with a __proto__ claim', async () => {
  const minted = await call('/__mock/tokens', {
    method: 'POST',
    body: JSON.stringify({ sub: 'x', team_id: fixtures().teams[0]!.id }).replace(
      '{',
      '{"__proto__":{"is_super_admin":true,"permissions":["persona:read"]},',
    ),
  })
  expect(minted.status).toBe(200)
  const other = await call(`/v1/personas/?team_id=${fixtures().teams[1]!.id}`, { token: minted.json.token })
  expect([other.status, other.json.detail]).toEqual([403, 'Missing permission: persona:read'])
})

it('refuses __proto__ in control bodies, and changes nothing with it', async () => {
  const seed = fixtures().seed
  const reset = await call('/__mock/reset', { method: 'POST', body: '{"__proto__":{"seed":5}}' })
  expect([reset.status, fixtures().seed]).toEqual([400, seed])
  const faults = await call('/__mock/faults', { method: 'PUT', body: '{"__proto__":{"error":{"status":503}}}' })
  expect(faults.status).toBe(400)
  const hidden = await call('/__mock/faults', {
    method: 'PUT',
    body: '{"operations":{"__proto__":{"list_personas":{"error":{"status":999}}}}}',
  })
  expect([hidden.status, hidden.json.detail]).toEqual([
    400,
    expect.stringMatching(/^operations: no operation named "__proto__"; known: list_personas, /),
  ])
  expect(
    (await call('/v1/personas/?limit=1', { token: fixtures().tokens.team_reader })).status,
    'no fault slipped in through the prototype',
  ).toBe(200)
  await call('/__mock/faults', { method: 'PUT', json: {} })
})

it('keeps a __proto__ key in a value record sent to the control API, as the bulk add does, and refuses it elsewhere', async () => {
  const dimension = fixtures().dimensions[0]!.id
  const record = `{"value":"control-proto","dimension_id":"${dimension}","value_metadata":${METADATA}}`
  const created = await call('/__mock/records/values', { method: 'POST', body: record, headers: JSON_BODY })
  expect(created.status).toBe(201)
  expect(created.text).toContain(`"value_metadata":${METADATA}`)
  expect((await call('/__mock/state')).text).toContain(`"value":"control-proto",`)
  await running.persistence!.flush()
  expect(readFileSync(stateFile, 'utf8')).toContain(`"value_metadata":${METADATA}`)
  const team = fixtures().teams[0]!.id
  const persona = `{"team_id":"${team}","name":"p","role":"r","access_permissions":{"__proto__":{"a":1},"zz":1}}`
  const refused = await call('/__mock/records/personas', { method: 'POST', body: persona, headers: JSON_BODY })
  expect([refused.status, refused.text]).toEqual([
    422,
    JSON.stringify({
      detail: 'Invalid personas: access_permissions.__proto__: a key named __proto__ is kept only in value_metadata',
    }),
  ])
  expect((await call('/__mock/state')).text).not.toContain('"zz":1')
})

it('logged no error', () => {
  expect(loggedErrors).toEqual([])
})
