import { createCore, MockInstance } from '../../../handlers/index.js'
import type { JudgedExchange } from '../../../verify/index.js'

const BASE = 'http://mock.test'
const instance = await MockInstance.create({ seed: 5, personasPerTeam: 30 })
const core = createCore({ instance, baseUrl: BASE })
export const { tokens, teams, policies, dimensions } = instance.fixtures

/** A real exchange with the mock (in process), as the judge takes it. */
export async function exchange(
  method: string,
  pathAndQuery: string,
  options: { token?: string; body?: unknown } = {},
): Promise<JudgedExchange> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? tokens.team_reader}` }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  const response = await core.fetch(new Request(`${BASE}${pathAndQuery}`, { method, headers, body }))
  const url = new URL(`${BASE}${pathAndQuery}`)
  const text = await response.text()
  return {
    method,
    path: url.pathname,
    query: url.search.slice(1),
    requestBody: options.body,
    status: response.status,
    responseBody: text ? JSON.parse(text) : undefined,
    contentType: response.headers.get('content-type'),
  }
}

/** The same exchange with its answer's body changed (a deep copy: the original stays as it was). */
export function corrupt(original: JudgedExchange, change: (body: any) => unknown): JudgedExchange {
  return { ...original, responseBody: change(structuredClone(original.responseBody)) }
}

export const checksOf = (violations: ReadonlyArray<{ check: string }>) => violations.map((v) => v.check)
