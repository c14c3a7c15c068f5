import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProfileOptions } from 'agent-console-mock'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { DOCUMENTS } from '../openapi/documents.js'
import { NEW_AGENT } from '../openapi/exercise.js'
import { startOpenApiApp, type RunningApp } from '../openapi/uvicorn.js'
import { fastapi0115, fastapi092, type FastApiRuntime } from './python.js'

/**
 * The mock serving test/openapi/app.py's document answers what the app itself answers, byte for byte, where
 * FastAPI (not the app's code) writes the answer: validation, auth, routing. Twice: the 3.0 document under
 * FastAPI 0.92's profile beside FastAPI 0.92, and the 3.1 one under the default profile (pydantic 2) beside
 * FastAPI 0.115, which still answers missing credentials with 403 (FastAPI >= 0.122, the default, with 401).
 */
interface Generation {
  runtime: FastApiRuntime
  document: string
  profile: ProfileOptions
}
const GENERATIONS: Generation[] = [
  { runtime: fastapi092, document: DOCUMENTS['3.0'], profile: { pydantic: '1', missingCredentialsStatus: 403 } },
  { runtime: fastapi0115, document: DOCUMENTS['3.1'], profile: { missingCredentialsStatus: 403 } },
]
for (const { runtime } of GENERATIONS) {
  const unavailable = runtime.unavailable()
  if (unavailable) console.warn(`test/fastapi/served-openapi skipped beside ${runtime.name}: ${unavailable}`)
}
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

describe.each(GENERATIONS)('a served document, beside $runtime.name running the app', (generation) => {
  const { runtime } = generation
  let app: RunningApp
  let mock: MockServer
  beforeAll(async () => {
    if (runtime.unavailable()) return
    app = await startOpenApiApp(runtime)
    mock = await createMockServer({
      baseUrl: 'http://mock.test',
      openapi: generation.document,
      profile: generation.profile,
      onUnhandledRequest: 'bypass',
    })
  }, 90_000)
  afterAll(async () => {
    mock?.close()
    await app?.stop()
  })

  it.skipIf(runtime.unavailable()).each(CASES)(
    '%s %s answers as FastAPI does',
    async (method, path, { body, token } = {}) => {
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
    },
  )
})
