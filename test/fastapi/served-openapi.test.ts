import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DOCUMENTS } from '../openapi/documents.js'
import { NEW_AGENT } from '../openapi/exercise.js'
import { startOpenApiApp, type RunningApp } from '../openapi/uvicorn.js'
import { fastApiUnavailable } from './server.js'

/**
 * The mock serving test/openapi/app.py's 3.0 document under FastAPI 0.92's profile answers what the app itself
 * answers, byte for byte, where FastAPI (not the app's code) writes the answer: validation, auth, routing.
 */

const unavailable = fastApiUnavailable()
const UNKNOWN_ID = '7b0c1f7e-8a0d-4c5e-9f3a-2d1e0c9b8a7f'

/** Requests FastAPI answers before the app's code runs. */
const CASES: Array<[string, string, { body?: string; token?: false }?]> = [
  ['POST', '/v1/agents/', { body: JSON.stringify({ ...NEW_AGENT, name: undefined }) }],
  ['GET', '/v1/agents/not-a-uuid'],
  ['GET', '/v1/agents/', { token: false }],
  ['DELETE', `/v1/agents/${UNKNOWN_ID}`, { token: false }],
  ['GET', '/v1/agents/?limit=0&offset=-1'],
  ['POST', '/v1/agents/', { body: JSON.stringify({ ...NEW_AGENT, kind: 'robot', tags: [] }) }],
  ['POST', '/v1/agents/', { body: JSON.stringify({ ...NEW_AGENT, config: { model: '', temperature: 'hot' } }) }],
  [
    'POST',
    '/v1/agents/',
    { body: JSON.stringify({ ...NEW_AGENT, config: { model: 'm', temperature: 5, max_tokens: 9000 } }) },
  ],
  ['POST', '/v1/agents/', { body: '{"name": ' }],
  ['POST', '/v1/agents/', {}],
  ['PATCH', `/v1/agents/${UNKNOWN_ID}`, { body: JSON.stringify({ tags: [], name: '' }) }],
  ['POST', '/v1/evaluations/', { body: JSON.stringify({ agent_id: 'x', sample_size: '12a' }) }],
  ['GET', '/v1/evaluations/nope/report', { token: false }],
  ['PUT', '/v1/agents/'],
  ['GET', '/v1/agents'],
]

describe.skipIf(unavailable)('a served 3.0 document, beside FastAPI 0.92 running the app', () => {
  let app: RunningApp
  let mock: MockServer
  beforeAll(async () => {
    app = await startOpenApiApp()
    mock = await createMockServer({
      baseUrl: 'http://mock.test',
      openapi: DOCUMENTS['3.0'],
      profile: { pydantic: '1', missingCredentialsStatus: 403 },
      onUnhandledRequest: 'bypass',
    })
  }, 90_000)
  afterAll(async () => {
    mock?.close()
    await app?.stop()
  })

  it.each(CASES)('%s %s answers as FastAPI does', async (method, path, { body, token } = {}) => {
    const send = async (base: string) => {
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
      if (token !== false) headers.authorization = `Bearer ${mock.fixtures.tokens.team_reader}`
      const response = await fetch(base + path, { method, headers, body, redirect: 'manual' })
      const location = response.headers.get('location')?.replace(base, '')
      return { status: response.status, location, body: await response.text() }
    }
    const [real, mocked] = [await send(app.url), await send(mock.baseUrl)]
    expect(real.status).toBeGreaterThanOrEqual(300)
    expect(mocked).toEqual(real)
  })
})
