import { afterEach, describe, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DOCUMENTS, readDocument } from '../openapi/documents.js'
import { agentRoundTrip, checkedSend, json, NEW_AGENT, type Send } from '../openapi/exercise.js'

/** FastAPI 0.92's profile: pydantic 1, and 403 for a request without credentials. */
const FASTAPI_092 = { pydantic: '1', missingCredentialsStatus: 403 } as const

let mock: MockServer | undefined
afterEach(() => {
  mock?.close()
  mock = undefined
})

function sender(running: MockServer): Send {
  return (method, path, { token, json } = {}) =>
    fetch(running.url(path), {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(json !== undefined && { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
}

it('answers 500 to a change its response model refuses, as FastAPI does, and keeps nothing of it', async () => {
  mock = await createMockServer({ seed: 5, openapi: DOCUMENTS['3.1'] })
  const send = sender(mock)
  const token = mock.fixtures.tokens.team_reader
  const agent = await json(await send('POST', '/v1/agents/', { token, json: NEW_AGENT }))
  // 3.1's update schema lets name be null (Optional[str]); the agent's does not, so response validation fails.
  const nulled = await send('PATCH', `/v1/agents/${agent.id}`, { token, json: { name: null } })
  expect([nulled.status, await nulled.text()]).toEqual([500, 'Internal Server Error'])
  expect(await json(await send('GET', `/v1/agents/${agent.id}`, { token }))).toEqual(agent)
})

it("takes 3.0's optional reference, `allOf: [{$ref}]` beside `nullable: true`, as Optional", async () => {
  const document = readDocument(DOCUMENTS['3.0'])
  const optionalKind = { allOf: [{ $ref: '#/components/schemas/AgentKind' }], nullable: true }
  document.components.schemas.AgentUpdate.properties.kind = optionalKind
  document.components.schemas.Agent.properties.kind = optionalKind
  mock = await createMockServer({ seed: 5, openapi: document })
  const send = sender(mock)
  const token = mock.fixtures.tokens.team_reader
  const agent = await json(await send('POST', '/v1/agents/', { token, json: NEW_AGENT }))
  const cleared = await send('PATCH', `/v1/agents/${agent.id}`, { token, json: { kind: null } })
  expect([cleared.status, (await json(cleared)).kind]).toEqual([200, null])
  const bogus = await send('PATCH', `/v1/agents/${agent.id}`, { token, json: { kind: 'bogus' } })
  expect([bogus.status, (await json(bogus)).detail[0].type]).toEqual([422, 'enum'])
})

describe.each(Object.entries(DOCUMENTS))('the OpenAPI %s document, in-process', (_version, path) => {
  const document = readDocument(path)
  const start = async (options: { pydantic?: '1' } = {}) => {
    mock = await createMockServer({ seed: 5, openapi: path, profile: options.pydantic && FASTAPI_092 })
    return { send: checkedSend(sender(mock), document), token: mock.fixtures.tokens.team_reader }
  }

  it('starts its collections with seeded records, each readable by id', async () => {
    const { send, token } = await start()
    const page = await json(await send('GET', '/v1/agents/', { token }))
    expect(page.total).toBe(5)
    for (const agent of page.results)
      expect(await json(await send('GET', `/v1/agents/${agent.id}`, { token }))).toEqual(agent)
  })

  it('seeds records updated no earlier than they were created, whatever the seed', async () => {
    const { send, token } = await start()
    for (let seed = 1; seed <= 12; seed++) {
      await mock!.reset({ seed })
      const page = await json(await send('GET', '/v1/agents/', { token }))
      for (const agent of page.results)
        expect(agent.updated_at >= agent.created_at, `seed ${seed}: ${JSON.stringify(agent)}`).toBe(true)
    }
  })

  it('stores, reads, changes, lists and deletes a record', async () => {
    const { send, token } = await start()
    await agentRoundTrip(send, token)
  })

  it('stores a record without its optional fields: null where the answer writes them, not refused', async () => {
    const { send, token } = await start()
    const { description: _, ...plain } = NEW_AGENT
    const created = await send('POST', '/v1/agents/', { token, json: plain })
    expect(created.status).toBe(201)
    const agent = await json(created)
    expect(agent.description).toBeNull()
    const renamed = await send('PATCH', `/v1/agents/${agent.id}`, { token, json: { name: 'Renamed' } })
    expect(renamed.status).toBe(200)
  })

  it('refuses a body without a required field as pydantic 2 does', async () => {
    const { send, token } = await start()
    const { name: _, ...nameless } = NEW_AGENT
    const response = await send('POST', '/v1/agents/', { token, json: nameless })
    expect(response.status).toBe(422)
    expect(await json(response)).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: nameless }],
    })
  })

  it('refuses floats, bounds and item counts as pydantic 2 does', async () => {
    const { send, token } = await start()
    const sent = { ...NEW_AGENT, config: { model: 'm', temperature: 'hot', max_tokens: 0 }, tags: [] }
    expect(await json(await send('POST', '/v1/agents/', { token, json: sent }))).toEqual({
      detail: [
        {
          type: 'float_parsing',
          loc: ['body', 'config', 'temperature'],
          msg: 'Input should be a valid number, unable to parse string as a number',
          input: 'hot',
        },
        {
          type: 'greater_than_equal',
          loc: ['body', 'config', 'max_tokens'],
          msg: 'Input should be greater than or equal to 1',
          input: 0,
          ctx: { ge: 1 },
        },
        {
          type: 'too_short',
          loc: ['body', 'tags'],
          msg: 'List should have at least 1 item after validation, not 0',
          input: [],
          ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
        },
      ],
    })
    // A float field's bound is a float in the ctx (FastAPI 0.115 beside it: test/fastapi/served-openapi.test.ts).
    const over = { ...NEW_AGENT, config: { model: 'm', temperature: 5, max_tokens: 9000 } }
    const refused = await (await send('POST', '/v1/agents/', { token, json: over })).text()
    expect(refused).toContain('"msg":"Input should be less than or equal to 2","input":5,"ctx":{"le":2.0}}')
    expect(refused).toContain('"msg":"Input should be less than or equal to 8192","input":9000,"ctx":{"le":8192}}')
    const stored = await send('POST', '/v1/agents/', {
      token,
      json: { ...NEW_AGENT, config: { model: 'm', temperature: 1 } },
    })
    expect(await stored.text()).toContain('"config":{"model":"m","temperature":1.0,"max_tokens":1024}')
  })

  it('refuses a malformed uuid in the path at ["path", "agent_id"]', async () => {
    const { send, token } = await start()
    const body = await json(await send('GET', '/v1/agents/not-a-uuid', { token }))
    expect(body.detail).toHaveLength(1)
    expect(body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'agent_id'], input: 'not-a-uuid' })
  })

  it('refuses a secured operation without a token as HTTPBearer does, and answers an open one', async () => {
    const { send } = await start()
    const refused = await send('GET', '/v1/agents/')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer')
    expect(await json(refused)).toEqual({ detail: 'Not authenticated' })
    const id = '7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f'
    const report = await send('GET', `/v1/evaluations/${id}/report`)
    expect(report.status).toBe(200)
    expect((await json(report)).evaluation_id).toBe(id)
  })

  it('answers the declared 202 of an operation that starts work', async () => {
    const { send, token } = await start()
    const agentId = '7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f'
    const response = await send('POST', '/v1/evaluations/', { token, json: { agent_id: agentId, dataset: 'faq' } })
    expect(response.status).toBe(202)
    expect(await json(response)).toMatchObject({ agent_id: agentId })
  })

  it('reads a persona by id from the world the persona list reads', async () => {
    const { send, token } = await start()
    const listed = await json(await send('GET', '/v1/personas/?limit=3', { token }))
    expect(listed.results).toHaveLength(3)
    for (const persona of listed.results) {
      const read = await send('GET', `/v1/personas/${persona.id}`, { token })
      expect(read.status).toBe(200)
      const body = await json(read)
      expect(body).toEqual({
        id: persona.id,
        team_id: persona.team_id,
        name: persona.name,
        role: persona.role,
        intent: persona.intent,
        language: persona.language,
        tags: persona.tags,
        created_at: persona.created_at,
        updated_at: persona.updated_at,
      })
    }
    const unknown = await send('GET', '/v1/personas/7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f', { token })
    expect(unknown.status).toBe(404)
  })

  it('speaks pydantic 1 under that profile', async () => {
    const { send, token } = await start({ pydantic: '1' })
    const { name: _, ...nameless } = NEW_AGENT
    const missing = await send('POST', '/v1/agents/', { token, json: nameless })
    expect(await json(missing)).toEqual({
      detail: [{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }],
    })
    const malformed = await send('GET', '/v1/agents/not-a-uuid', { token })
    expect(await json(malformed)).toEqual({
      detail: [{ loc: ['path', 'agent_id'], msg: 'value is not a valid uuid', type: 'type_error.uuid' }],
    })
    const refused = await send('GET', '/v1/agents/')
    expect([refused.status, await json(refused)]).toEqual([403, { detail: 'Not authenticated' }])
  })

  it('keeps written records in snapshots and the state file', async () => {
    const { send, token } = await start()
    const agent = await json(await send('POST', '/v1/agents/', { token, json: NEW_AGENT }))
    await mock!.snapshot('one')
    const state = await (await fetch(mock!.url('/__mock/state'))).text()
    expect(JSON.parse(state).documented['/v1/agents']).toHaveLength(6)
    await send('DELETE', `/v1/agents/${agent.id}`, { token })
    await mock!.restore('one')
    expect(await json(await send('GET', `/v1/agents/${agent.id}`, { token }))).toEqual(agent)
    await mock!.reset()
    expect((await send('GET', `/v1/agents/${agent.id}`, { token })).status).toBe(404)
    const put = await fetch(mock!.url('/__mock/state'), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: state,
    })
    expect(put.status).toBeLessThan(300)
    expect(await json(await send('GET', `/v1/agents/${agent.id}`, { token }))).toEqual(agent)
  })

  it('journals its answers', async () => {
    const { send, token } = await start()
    await send('POST', '/v1/agents/', { token, json: NEW_AGENT })
    const journal = await json(await fetch(mock!.url('/__mock/requests')))
    expect(journal.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v1/agents/', status: 201, body: JSON.stringify(NEW_AGENT) }),
    ])
  })

  it('forgets what was written on a reset, and seeds the same records again', async () => {
    const { send, token } = await start()
    const seeded = await json(await send('GET', '/v1/agents/', { token }))
    await send('POST', '/v1/agents/', { token, json: NEW_AGENT })
    await mock!.reset()
    expect(await json(await send('GET', '/v1/agents/', { token }))).toEqual(seeded)
  })
})
