/**
 * The operations of a served OpenAPI document in the control API, recorded contracts, the mock's own
 * `/openapi.json` and per-operation faults (docs/openapi.md), through the in-process mock's HTTP surface.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterEach, describe, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DOCUMENTS, readDocument } from '../openapi/documents.js'
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
    const { send, control, running } = await start()
    await send('GET', '/v1/agents/')
    const pact = await json(await control('GET', '/contract?format=pact'))
    expect(await running.contract('pact'), 'the same from the package’s API').toEqual(pact)
    const [list] = pact.interactions
    expect(list.request).toMatchObject({ method: 'GET', path: '/v1/agents/' })
    expect(list.response.status).toBe(200)
    expect(list.response.body.content.total).toBe(5)
    expect(Object.keys(list.response.matchingRules.body)).toEqual(
      expect.arrayContaining(['$.results', '$.results[*].id']),
    )
  })
})

describe('the control API', () => {
  it('lists the served operations beside the mock’s own', async () => {
    const { control } = await start()
    const { operations } = await json(await control('GET', '/operations'))
    expect(operations.slice(0, 3)).toEqual([
      { name: 'list_personas', method: 'GET', path: '/v1/personas/', served: false },
      { name: 'bulk_add_values', method: 'POST', path: '/v1/demographics/{dimension_id}/values/bulk', served: false },
      { name: 'list_policy_rules', method: 'GET', path: '/v1/policies/{policy_id}/rules', served: false },
    ])
    expect(operations).toContainEqual({
      name: 'get_agent_v1_agents__agent_id__get',
      method: 'GET',
      path: '/v1/agents/{agent_id}',
      served: true,
    })
    expect(operations.filter((operation: any) => operation.served)).toHaveLength(9)
  })

  it('lists only the mock’s own operations without a document', async () => {
    mock = await createMockServer({ seed: 5 })
    const { operations } = await json(await fetch(mock.url('/__mock/operations')))
    expect(operations.map((operation: any) => operation.name)).toEqual([
      'list_personas',
      'bulk_add_values',
      'list_policy_rules',
    ])
  })

  it('injects a fault into one served operation by its name, and refuses an unknown name', async () => {
    const { send, control } = await start()
    const faults = { operations: { list_agents_v1_agents__get: { error: { status: 503 } } } }
    const set = await control('PUT', '/faults', faults)
    expect(set.status).toBe(200)
    expect(await json(set)).toEqual({ operations: { list_agents_v1_agents__get: { error: { status: 503, rate: 1 } } } })
    const failed = await send('GET', '/v1/agents/')
    expect([failed.status, await json(failed)]).toEqual([503, { detail: 'Service Unavailable' }])
    expect((await send('POST', '/v1/agents/', NEW_AGENT)).status, 'other served operations untouched').toBe(201)
    expect((await send('GET', '/v1/personas/')).status, 'the mock’s own untouched').toBe(200)
    const unknown = await control('PUT', '/faults', { operations: { list_teams: { latency: 5 } } })
    expect(unknown.status).toBe(400)
    const { detail } = await json(unknown)
    expect(detail).toMatch(/^operations: no operation named "list_teams"; known: list_personas, bulk_add_values, /)
    expect(detail, "the served document's operations are among them").toContain('list_agents_v1_agents__get')
  })
})

describe('control overrides', () => {
  it('answer a served operation after its auth and validation, until dropped', async () => {
    const { send, control, running } = await start()
    const list = 'list_agents_v1_agents__get'
    const set = await control('PUT', `/overrides/${list}`, { status: 200, body: { results: [], total: 0 } })
    expect(await json(set)).toEqual({ overrides: { [list]: { status: 200, body: { results: [], total: 0 } } } })
    const listed = await send('GET', '/v1/agents/')
    expect(await listed.text()).toBe(JSON.stringify({ results: [], total: 0 }))
    expect((await fetch(running.url('/v1/agents/'))).status, 'auth first').toBe(401)
    const read = 'get_agent_v1_agents__agent_id__get'
    await control('PUT', `/overrides/${read}`, { error: 'not_found', detail: 'Agent not found' })
    const missing = await send('GET', '/v1/agents/9b2f3c1e-0000-4000-8000-000000000000')
    expect([missing.status, await json(missing)]).toEqual([404, { detail: 'Agent not found' }])
    expect((await send('GET', '/v1/agents/not-a-uuid')).status, 'validation first').toBe(422)
    expect((await control('DELETE', `/overrides/${list}`)).status).toBe(204)
    expect((await json(await send('GET', '/v1/agents/'))).total).toBe(5)
    expect(Object.keys((await json(await control('GET', '/overrides'))).overrides)).toEqual([read])
  })

  it('refuse what the served operation cannot answer, and unknown names', async () => {
    const { control } = await start()
    const list = 'list_agents_v1_agents__get'
    const wrongBody = await control('PUT', `/overrides/${list}`, { body: { results: 'none' } })
    expect(wrongBody.status).toBe(400)
    expect((await json(wrongBody)).detail).toMatch(/^Invalid override of list_agents_v1_agents__get: body\.results: /)
    const wrongStatus = await control('PUT', `/overrides/${list}`, { status: 201, body: { results: [], total: 0 } })
    expect(await json(wrongStatus)).toEqual({
      detail: `Invalid override of ${list}: status: 201 is not an answer of ${list}: give 200, or an error status (400 to 599)`,
    })
    const unknown = await control('PUT', '/overrides/list_teams', { body: [] })
    expect(unknown.status).toBe(404)
    expect((await json(unknown)).detail).toContain(`list_policy_rules, ${list}, create_agent_v1_agents__post`)
    expect((await json(await control('GET', '/overrides'))).overrides).toEqual({})
  })
})

describe('the mock’s own /openapi.json', () => {
  const PROFILES = { 'pydantic 2': undefined, 'FastAPI 0.92': { pydantic: '1' } } as const
  const combinations = Object.entries(DOCUMENTS).flatMap(([version, path]) =>
    Object.entries(PROFILES).map(([profile, options]) => [version, profile, path, options] as const),
  )

  it.each(combinations)('lists a %s document’s operations under %s, and validates', async (_v, _p, path, profile) => {
    const own = await createMockServer({ seed: 5, profile })
    const ownDocument = await json(await fetch(own.url('/openapi.json')))
    own.close()
    mock = await createMockServer({ seed: 5, openapi: path, profile })
    const merged = await json(await fetch(mock.url('/openapi.json')))
    const served = readDocument(path)
    const result = await new Validator().validate(structuredClone(merged))
    expect(result.errors).toBeUndefined()
    expect(merged.openapi, 'the mock’s version').toBe(ownDocument.openapi)
    for (const [ownPath, item] of Object.entries(ownDocument.paths)) expect(merged.paths[ownPath]).toEqual(item)
    for (const [name, schema] of Object.entries(ownDocument.components.schemas))
      expect(merged.components.schemas[name], name).toEqual(schema)
    expect(Object.keys(merged.paths)).toEqual([...Object.keys(ownDocument.paths), ...Object.keys(served.paths)])
    const read = merged.paths['/v1/agents/{agent_id}'].get
    expect(read.operationId).toBe('get_agent_v1_agents__agent_id__get')
    expect(read.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Agent' })
    expect(merged.components.schemas.Agent.title).toBe('Agent')
    const persona = merged.paths['/v1/personas/{persona_id}'].get.responses['200'].content['application/json']
    expect(persona.schema, 'the document’s Persona is not the mock’s').toEqual({
      $ref: '#/components/schemas/served__Persona',
    })
    expect(merged.components.schemas.served__Persona.properties).toEqual(
      expect.objectContaining({ id: expect.anything() }),
    )
  })

  it('is the mock’s own without a document', async () => {
    mock = await createMockServer({ seed: 5 })
    const document = await json(await fetch(mock.url('/openapi.json')))
    expect(Object.keys(document.paths)).toHaveLength(3)
  })
})

describe('imports over the control API', () => {
  it("refuse a state or a snapshot whose served records the document's schemas refuse, changing nothing", async () => {
    const { send, control } = await start()
    await send('POST', '/v1/agents/', NEW_AGENT)
    const state = await json(await control('GET', '/state'))
    const [first, second] = state.documented['/v1/agents'] as Array<Record<string, unknown>>
    const broken = {
      ...state,
      documented: { '/v1/agents': [first, first, { ...second, kind: 'bogus', name: null }, { id: 5 }] },
    }
    const refused = await control('PUT', '/state', broken)
    expect(refused.status).toBe(400)
    const { detail } = await json(refused)
    expect(detail).toMatch(/^Invalid state: documented\.\/v1\/agents\[1\]\.id: the id of item 0 again; /)
    expect(detail).toContain('documented./v1/agents[2].name: Input should be a valid string')
    expect(detail).toContain('documented./v1/agents[2].kind: Input should be ')
    expect(detail).toContain('documented./v1/agents[3].name: Field required')
    expect(detail, 'ten problems, then how many more').toMatch(/ \(and \d+ more\)$/)
    const unknown = await control('PUT', '/snapshots/elsewhere', { ...state, documented: { '/v1/nothing': [] } })
    expect([unknown.status, (await json(unknown)).detail]).toEqual([
      400,
      'Invalid state: documented./v1/nothing: no collection of the served document (/v1/agents, /v1/evaluations, /v1/personas)',
    ])
    // JSON.parse makes an own `__proto__` key, as a client's body does (a literal would set the prototype).
    const proto = await control('PUT', '/state', { ...state, documented: JSON.parse('{"__proto__": []}') })
    expect([proto.status, (await json(proto)).detail]).toEqual([
      400,
      'Invalid state: the state does not fit the schemas: documented.__proto__: no served collection is named __proto__',
    ])
    const looseFloat = structuredClone(state)
    looseFloat.documented['/v1/agents'][0].config.temperature = '0.5'
    looseFloat.documented['/v1/agents'][1].id = String(second!.id).toUpperCase()
    expect((await json(await control('PUT', '/state', looseFloat))).detail).toBe(
      `Invalid state: documented./v1/agents[0].config.temperature: the answer would write 0.5; documented./v1/agents[1].id: the answer would write "${second!.id}"`,
    )
    expect(await json(await control('GET', '/state')), 'nothing changed').toEqual(state)
    expect((await control('PUT', '/state', state)).status, 'its own export is taken').toBe(200)
  })
})

describe('a served collection whose records have no id', () => {
  /** A log a team only appends to and lists: no item path, no id field. */
  const EVENTS = {
    openapi: '3.1.0',
    info: { title: 'events', version: '1' },
    paths: {
      '/v1/events/': {
        get: {
          operationId: 'list_events',
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
                },
              },
            },
          },
        },
        post: {
          operationId: 'add_event',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } },
          },
          responses: {
            '201': {
              description: 'added',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Event: {
          type: 'object',
          properties: { kind: { type: 'string' } },
          required: ['kind'],
        },
      },
    },
  }

  it('loads back the state it exports, as the writes that stored them took them', async () => {
    mock = await createMockServer({ seed: 5, openapi: EVENTS })
    const control = (method: string, body?: unknown) =>
      fetch(mock!.url('/__mock/state'), {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    for (const kind of ['started', 'stopped']) {
      const added = await fetch(mock.url('/v1/events/'), {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind }),
      })
      expect(added.status).toBe(201)
    }
    const state = await json(await control('GET'))
    const stored = state.documented['/v1/events'] as Array<Record<string, unknown>>
    expect(stored.slice(-2).map((event) => event['kind'])).toEqual(['started', 'stopped'])
    const loaded = await control('PUT', state)
    expect(loaded.status, await loaded.clone().text()).toBe(200)
    const again = await json(await control('GET'))
    expect(again.documented).toEqual(state.documented)
  })
})
