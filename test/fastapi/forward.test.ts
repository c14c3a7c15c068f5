/**
 * `forward` against real FastAPI (0.92 under uvicorn): a forwarded prefix answers what the FastAPI app answers,
 * byte for byte, including a write and a 422 the mock would have answered otherwise.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { startTestServer } from '../support/server.js'
import { fastApiTokens, fastApiUnavailable, startFastApi, type FastApiTokens, type RunningFastApi } from './server.js'

const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/forward skipped: ${unavailable}`)

/**
 * An answer as it came: status, headers, body bytes; but uvicorn's `date` (the second it was sent) and the
 * connection's own headers (hop-by-hop: each server writes its own).
 */
const OWN = new Set(['date', 'connection', 'keep-alive'])
const exchange = (url: string, method: string, headers: Record<string, string>, body?: string) =>
  new Promise<{ status: number; headers: string[]; body: Buffer }>((resolve, reject) =>
    request(url, { method, headers }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const kept = answer.rawHeaders.flatMap((value, i, all) =>
          i % 2 === 0 && !OWN.has(value.toLowerCase()) ? [`${value}: ${all[i + 1]}`] : [],
        )
        resolve({ status: answer.statusCode!, headers: kept, body: Buffer.concat(chunks) })
      })
    })
      .on('error', reject)
      .end(body),
  )

describe.skipIf(unavailable)('forward, against real FastAPI', () => {
  let fastapi: RunningFastApi
  let tokens: FastApiTokens
  let mock: RunningServer
  beforeAll(async () => {
    fastapi = await startFastApi()
    tokens = await fastApiTokens(fastapi)
    mock = await startTestServer({ forward: { '/v1/personas': fastapi.url, '/v1/demographics': fastapi.url } })
  })
  afterAll(async () => {
    await Promise.all([fastapi?.stop(), mock?.close()])
  })

  it('answers as the FastAPI app does, byte for byte, and journals it', async () => {
    const list = `/v1/personas/?team_id=${fastapi.ids.teams.primary}&limit=3`
    const reader = { authorization: `Bearer ${tokens.reader}` }
    const direct = await exchange(fastapi.url + list, 'GET', reader)
    const forwarded = await exchange(mock.url + list, 'GET', reader)
    expect(forwarded.status).toBe(200)
    expect(forwarded).toEqual(direct)
    // A body FastAPI refuses in its own words (pydantic 1): the mock would answer in pydantic 2's.
    const bulk = `/v1/demographics/${fastapi.ids.dimensions.primary}/values/bulk`
    const admin = { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' }
    const refused = await exchange(mock.url + bulk, 'POST', admin, '{"values": [{}]}')
    expect(refused.status).toBe(422)
    expect(JSON.parse(refused.body.toString())).toEqual({
      detail: [{ loc: ['body', 'values', 0, 'value'], msg: 'field required', type: 'value_error.missing' }],
    })
    const entries = ((await (await fetch(`${mock.url}/__mock/requests`)).json()) as { requests: object[] }).requests
    expect(entries).toMatchObject([
      { method: 'GET', path: '/v1/personas/', status: 200, origin: fastapi.url },
      { method: 'POST', path: bulk, status: 422, origin: fastapi.url },
    ])
  })
})
