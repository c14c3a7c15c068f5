/**
 * The operations of a served OpenAPI document in the control API, recorded contracts, the mock's own
 * `/openapi.json` and per-operation faults (docs/openapi.md), through the in-process mock's HTTP surface.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DOCUMENTS } from '../openapi/documents.js'
import { json, NEW_AGENT } from '../openapi/exercise.js'

let mock: MockServer | undefined
afterEach(() => {
  mock?.close()
  mock = undefined
})

async function start(document = DOCUMENTS['3.1']) {
  mock = await createMockServer({ seed: 5, openapi: document })
  const running = mock
  const token = running.fixtures.tokens.team_reader
  const send = (method: string, path: string, body?: unknown) =>
    fetch(running.url(path), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const control = (method: string, path: string, body?: unknown) =>
    fetch(running.url(`/__mock${path}`), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { send, control, running }
}

describe('recorded contracts', () => {
  it('record the served operations beside the mock’s own, named by operationId', async () => {
    const { send, control } = await start()
    await send('GET', '/v1/personas/?limit=1')
    const created = await json(await send('POST', '/v1/agents/', NEW_AGENT))
    await send('GET', `/v1/agents/${created.id}`)
    await send('GET', '/v1/agents/')
    await send('DELETE', `/v1/agents/${created.id}`)
    const contract = await json(await control('GET', '/contract'))
    expect(contract.interactions.map((item: any) => [item.operation, item.method, item.response.status])).toEqual([
      ['list_personas', 'GET', 200],
      ['create_agent_v1_agents__post', 'POST', 201],
      ['get_agent_v1_agents__agent_id__get', 'GET', 200],
      ['list_agents_v1_agents__get', 'GET', 200],
      ['delete_agent_v1_agents__agent_id__delete', 'DELETE', 204],
    ])
    const [, create, read, list] = contract.interactions
    expect(create).toMatchObject({ role: 'team_reader', body: NEW_AGENT, response: { body: { name: NEW_AGENT.name } } })
    expect(read.path).toBe(`/v1/agents/${created.id}`)
    expect(list.response).toMatchObject({ total: 6, count: 6 })
  })

  it('write the served interactions into a Pact file, with matching rules from the document’s models', async () => {
    const { send, control } = await start()
    await send('GET', '/v1/agents/')
    const pact = await json(await control('GET', '/contract?format=pact'))
    const [list] = pact.interactions
    expect(list.request).toMatchObject({ method: 'GET', path: '/v1/agents/' })
    expect(list.response.status).toBe(200)
    expect(list.response.body.content.total).toBe(5)
    expect(Object.keys(list.response.matchingRules.body)).toEqual(
      expect.arrayContaining(['$.results', '$.results[*].id']),
    )
  })
})
