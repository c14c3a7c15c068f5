import { afterEach, expect, test, vi } from 'vitest'
import { startMockWorker } from 'agent-console-mock/browser'
import { NOT_THE_API, printed } from './support/unhandled.js'
import document from '../openapi/openapi-3.0.json' with { type: 'json' }

// browser/msw-adapter.ts on the installed msw, in the page: startMockWorker passes on what the mock
// does not answer without a word, on msw 2 and msw 3 alike. msw-default.test.ts shows that msw
// itself warns about that request. It is a file of its own, so a page of its own: on msw 2.12, a
// worker started in a page whose first worker had just stopped answered nothing.

afterEach(() => void vi.restoreAllMocks())

test('startMockWorker passes a request it does not answer on without a warning, and answers the API', async () => {
  // One worker a page (above): this one also serves a team's own document, whose agents it answers and keeps.
  const mock = await startMockWorker({ personasPerTeam: 1, openapi: document })
  try {
    let status = 0
    const log = await printed(async () => {
      await fetch(NOT_THE_API)
      status = (await fetch('/v1/personas/')).status
    })
    expect([log, status]).toEqual(['', 401])
    const auth = { authorization: `Bearer ${mock.fixtures.tokens.team_reader}`, 'content-type': 'application/json' }
    const agent = { name: 'Triage', kind: 'assistant', config: { model: 'gpt-4o' }, tags: ['support'] }
    const created = await fetch('/v1/agents/', { method: 'POST', headers: auth, body: JSON.stringify(agent) })
    expect(created.status, 'the document declares 201').toBe(201)
    const { id } = await created.json()
    const read = await fetch(`/v1/agents/${id}`, { headers: auth })
    expect(await read.json()).toMatchObject({ ...agent, id, config: { model: 'gpt-4o', temperature: 0.7 } })
    const refused = await fetch('/v1/agents/', { method: 'POST', headers: auth, body: '{}' })
    expect([refused.status, (await refused.json()).detail[0]]).toMatchObject([422, { loc: ['body', 'name'] }])
  } finally {
    await mock.stop()
  }
})
