import { expect } from 'vitest'
import { answerChecker } from './documents.js'

/** Sends one request to a mock serving a document of test/openapi/ (in-process or standalone). */
export type Send = (method: string, path: string, init?: { token?: string; json?: unknown }) => Promise<Response>

/** The request's path template in the documents, for the answer checker. */
const TEMPLATES: Array<[RegExp, string]> = [
  [/^\/v1\/agents\/(\?.*)?$/, '/v1/agents/'],
  [/^\/v1\/agents\/[^/?]+$/, '/v1/agents/{agent_id}'],
  [/^\/v1\/evaluations\/$/, '/v1/evaluations/'],
  [/^\/v1\/evaluations\/[^/]+\/report$/, '/v1/evaluations/{evaluation_id}/report'],
  [/^\/v1\/personas\/[^/?]+$/, '/v1/personas/{persona_id}'],
]

/**
 * `send`, with every answer checked against the document by ajv (test/openapi/documents.ts): a success must be
 * the declared one, with the declared content type and a body that fits the declared schema.
 */
export function checkedSend(send: Send, document: Record<string, any>): Send {
  const check = answerChecker(document)
  return async (method, path, init) => {
    const response = await send(method, path, init)
    const template = TEMPLATES.find(([pattern]) => pattern.test(path))?.[1]
    if (template && response.status < 300)
      expect(await check(method, template, response), `${method} ${path}`).toEqual([])
    return response
  }
}

/** A JSON answer's body, to assert on. */
export const json = (response: Response): Promise<any> => response.json()

export const NEW_AGENT = {
  name: 'Support triage',
  description: 'Sorts the tickets',
  kind: 'assistant',
  config: { model: 'gpt-4o', temperature: 0.2, max_tokens: 512 },
  tags: ['support'],
}

/** POST, GET, PATCH, list and DELETE of one agent, each answer as FastAPI gives it. */
export async function agentRoundTrip(send: Send, token: string): Promise<void> {
  const before = await json(await send('GET', '/v1/agents/', { token }))
  const created = await send('POST', '/v1/agents/', { token, json: NEW_AGENT })
  expect(created.status).toBe(201)
  const agent = await json(created)
  expect(agent).toMatchObject(NEW_AGENT)
  expect(agent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(Object.keys(agent)).toEqual([...Object.keys(NEW_AGENT), 'id', 'team_id', 'created_at', 'updated_at'])

  const read = await send('GET', `/v1/agents/${agent.id}`, { token })
  expect(read.status).toBe(200)
  expect(await json(read)).toEqual(agent)

  const patched = await send('PATCH', `/v1/agents/${agent.id}`, { token, json: { name: 'Renamed', tags: ['a', 'b'] } })
  expect(patched.status).toBe(200)
  const changed = await json(patched)
  expect(changed).toEqual({ ...agent, name: 'Renamed', tags: ['a', 'b'], updated_at: changed.updated_at })

  const listed = await json(await send('GET', '/v1/agents/?limit=100', { token }))
  expect(listed.total).toBe(before.total + 1)
  expect(listed.results.find((item: { id: string }) => item.id === agent.id)).toEqual(changed)
  const page = await json(await send('GET', '/v1/agents/?limit=2&offset=1', { token }))
  expect(page).toEqual({ results: listed.results.slice(1, 3), total: listed.total })

  const removed = await send('DELETE', `/v1/agents/${agent.id}`, { token })
  expect(removed.status).toBe(204)
  expect(await removed.text()).toBe('')
  const gone = await send('GET', `/v1/agents/${agent.id}`, { token })
  expect(gone.status).toBe(404)
  expect(await json(gone)).toEqual({ detail: 'Not Found' })
  expect((await json(await send('GET', '/v1/agents/', { token }))).total).toBe(before.total)
}
