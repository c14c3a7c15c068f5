import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli, type CliServer } from '../reliability/support/cli.js'
import { DOCUMENTS, readDocument } from '../openapi/documents.js'
import { agentRoundTrip, checkedSend, json, NEW_AGENT, type Send } from '../openapi/exercise.js'

/** The standalone server's `--openapi`: the built CLI, as a frontend developer starts it. */

const sender =
  (server: CliServer): Send =>
  (method, path, { token, json: body } = {}) =>
    fetch(server.url + path, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

const tokenOf = async (server: CliServer): Promise<string> =>
  (await json(await fetch(`${server.url}/__mock/fixtures`))).tokens.team_reader

describe('--openapi <file>', () => {
  const servers: CliServer[] = []
  beforeAll(async () => {
    for (let i = 0; i < 2; i++)
      servers.push(await startCli(['--port', '0', '--seed', '9', '-q', '--openapi', DOCUMENTS['3.1']]))
  }, 60_000)
  afterAll(async () => {
    for (const server of servers) await server.stop()
  })

  it('gives the same answers for the same seed in two processes', async () => {
    const bytes = async (server: CliServer, path: string) => {
      const response = await sender(server)('GET', path, { token: await tokenOf(server) })
      return `${response.status} ${response.headers.get('content-type')} ${await response.text()}`
    }
    for (const path of ['/v1/agents/?limit=5', '/v1/evaluations/7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f/report']) {
      const [first, second] = [await bytes(servers[0]!, path), await bytes(servers[1]!, path)]
      expect(first).toMatch(/^200 application\/json \{/)
      expect(second).toBe(first)
    }
  })

  it('stores, reads, changes, lists and deletes a record; every answer fits the document', async () => {
    const send = checkedSend(sender(servers[0]!), readDocument(DOCUMENTS['3.1']))
    await agentRoundTrip(send, await tokenOf(servers[0]!))
  })

  it('keeps records apart per session', async () => {
    const send = sender(servers[0]!)
    const token = await tokenOf(servers[0]!)
    const agent = await json(await send('POST', '/v1/agents/', { token, json: NEW_AGENT }))
    const read = (session?: string) =>
      fetch(`${servers[0]!.url}/v1/agents/${agent.id}`, {
        headers: { authorization: `Bearer ${token}`, ...(session && { 'x-mock-session': session }) },
      })
    expect((await read()).status).toBe(200)
    expect((await read('another')).status).toBe(404)
  })

  it('lists, records and describes the served operations (its own session)', async () => {
    const session = { 'x-mock-session': 'served-control' }
    const url = servers[1]!.url
    const token = await tokenOf(servers[1]!)
    const listed = await fetch(`${url}/v1/agents/`, { headers: { ...session, authorization: `Bearer ${token}` } })
    expect(listed.status).toBe(200)
    const contract = await json(await fetch(`${url}/__mock/contract`, { headers: session }))
    expect(contract.interactions.map((item: any) => item.operation)).toEqual(['list_agents_v1_agents__get'])
    const { operations } = await json(await fetch(`${url}/__mock/operations`))
    expect(operations.filter((item: any) => item.served).map((item: any) => item.name)).toContain(
      'list_agents_v1_agents__get',
    )
    const document = await json(await fetch(`${url}/openapi.json`))
    expect(document.paths['/v1/agents/'].get.operationId).toBe('list_agents_v1_agents__get')
    expect(document.paths['/v1/personas/'].get.operationId).toBe('list_personas_v1_personas__get')
  })

  it("answers FastAPI's 422s and HTTPBearer's refusal", async () => {
    const send = sender(servers[0]!)
    const token = await tokenOf(servers[0]!)
    const { name: _, ...nameless } = NEW_AGENT
    expect(await json(await send('POST', '/v1/agents/', { token, json: nameless }))).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: nameless }],
    })
    const malformed = await json(await send('GET', '/v1/agents/123', { token }))
    expect(malformed.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'agent_id'] })
    const refused = await send('DELETE', '/v1/agents/7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f')
    expect([refused.status, await refused.text()]).toEqual([401, '{"detail":"Not authenticated"}'])
  })

  it('reads a persona by id from the persona list', async () => {
    const send = checkedSend(sender(servers[0]!), readDocument(DOCUMENTS['3.1']))
    const token = await tokenOf(servers[0]!)
    const [persona] = (await json(await send('GET', '/v1/personas/?limit=1', { token }))).results
    expect(await json(await send('GET', `/v1/personas/${persona.id}`, { token }))).toMatchObject({
      id: persona.id,
      name: persona.name,
    })
  })
})

describe('--openapi <URL>', () => {
  let documentServer: Server
  let url: string
  beforeAll(async () => {
    const text = readFileSync(DOCUMENTS['3.0'], 'utf8')
    // The same document with one answer's schema a reference that leads nowhere, or out of the document.
    const referring = (ref: string) => {
      const document = JSON.parse(text)
      document.paths['/v1/agents/'].get.responses['200'].content['application/json'].schema = { $ref: ref }
      document.components.schemas.Agent.example = { $ref: 'data, not a reference' }
      return JSON.stringify(document)
    }
    const bodies: Record<string, string> = {
      '/openapi.json': text,
      '/dangling.json': referring('#/components/schemas/Missing'),
      '/external.json': referring('other.json#/Agent'),
      '/under-default.json': (() => {
        const document = JSON.parse(text)
        document.components.schemas.Agent.properties.default = { $ref: '#/components/schemas/Missing' }
        return JSON.stringify(document)
      })(),
    }
    documentServer = createServer((request, response) => {
      const body = bodies[request.url ?? '']
      if (body) response.writeHead(200, { 'content-type': 'application/json' }).end(body)
      else response.writeHead(404).end()
    })
    await new Promise<void>((done) => documentServer.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((done) => documentServer.close(() => done())))

  it("reads a running app's /openapi.json", { timeout: 90_000 }, async () => {
    const server = await startCli(['--port', '0', '-q', '--openapi', `${url}/openapi.json`])
    try {
      const created = await sender(server)('POST', '/v1/agents/', { token: await tokenOf(server), json: NEW_AGENT })
      expect(created.status).toBe(201)
    } finally {
      await server.stop()
    }
  })

  it('refuses to start, saying why, when the document cannot be read or is none', { timeout: 90_000 }, async () => {
    const missing = await runCli(['--port', '0', '--openapi', 'no-such-file.json'])
    expect(missing.code).toBe(1)
    expect(missing.output).toContain('cannot read the OpenAPI document no-such-file.json')
    const closed = createServer().listen(0, '127.0.0.1')
    await new Promise((done) => closed.once('listening', done))
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/openapi.json`
    await new Promise((done) => closed.close(done))
    const refused = await runCli(['--port', '0', '--openapi', nobody])
    expect(refused.output).toContain(
      `cannot read the OpenAPI document ${nobody}: connection refused: is the server running on that port?`,
    )
    const absent = await runCli(['--port', '0', '--openapi', `${url}/nothing.json`])
    expect(absent.output).toContain(`cannot read the OpenAPI document ${url}/nothing.json: HTTP 404`)
    const notOpenApi = await runCli(['--port', '0', '--openapi', 'package.json'])
    expect(notOpenApi.code).toBe(1)
    expect(notOpenApi.output).toContain('Not an OpenAPI 3.0 or 3.1 document')
    const at = '(at #/paths/~1v1~1agents~1/get/responses/200/content/application~1json/schema)'
    const dangling = await runCli(['--port', '0', '--openapi', `${url}/dangling.json`])
    expect([dangling.code, dangling.output]).toEqual([
      1,
      expect.stringContaining(`The reference #/components/schemas/Missing names nothing in the document. ${at}`),
    ])
    const external = await runCli(['--port', '0', '--openapi', `${url}/external.json`])
    expect(external.output).toContain(`Only local references are followed, not other.json#/Agent. ${at}`)
    // A property named `default` is a field, not a default value: a reference under it is checked.
    const underDefault = await runCli(['--port', '0', '--openapi', `${url}/under-default.json`])
    expect(underDefault.output).toContain(
      'The reference #/components/schemas/Missing names nothing in the document. (at #/components/schemas/Agent/properties/default)',
    )
  })
})
