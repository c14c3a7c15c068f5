/**
 * `forward` in-process (`createMockServer`): a forwarded prefix is answered by the real server through fetch,
 * ahead of the mock's operations, journaled; the rest is the mock's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { type RecordingTarget, startRecordingTarget } from '../support/recording-target.js'

const PAGE = JSON.stringify({ results: [{ id: 'agent-1' }], total: 1 })
let real: RecordingTarget
let mock: MockServer

beforeAll(async () => {
  real = await startRecordingTarget({
    status: 201,
    statusText: 'Made Here',
    json: PAGE,
    headers: [
      ['x-real', 'yes'],
      ['proxy-connection', 'keep-alive'],
    ],
  })
  mock = await createMockServer({ forward: { '/v1/agents': real.url, '/v1/personas': `${real.url}/api` } })
})
afterAll(() => {
  mock?.close()
  real?.close()
})

it('answers a forwarded prefix from the real server, decoded, and journals it', async () => {
  const answer = await fetch(mock.url('/v1/agents/?limit=2'), { method: 'POST', body: '{"name":"a"}' })
  expect([answer.status, answer.statusText, answer.headers.get('x-real')]).toEqual([201, 'Made Here', 'yes'])
  expect(answer.headers.get('content-encoding'), 'fetch decoded it').toBeNull()
  expect(answer.headers.get('proxy-connection'), "the real server's connection's").toBeNull()
  expect(await answer.text()).toBe(PAGE)
  expect(real.seen).toMatchObject({ method: 'POST', url: '/v1/agents/?limit=2', body: '{"name":"a"}' })
  expect(mock.instance.journal.list({ limit: 1 })).toMatchObject([
    { method: 'POST', path: '/v1/agents/', query: 'limit=2', status: 201, origin: real.url, body: '{"name":"a"}' },
  ])
})

it('forwards over an operation the mock implements (under the URL path), and answers the rest itself', async () => {
  const personas = await fetch(mock.url('/v1/personas/'))
  expect([personas.status, real.seen.url]).toEqual([201, '/api/v1/personas/'])
  const rules = await fetch(mock.url(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules`))
  expect([rules.status, await rules.json()]).toEqual([401, { detail: 'Not authenticated' }])
})
