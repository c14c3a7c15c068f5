/**
 * `forward` in-process (`createMockServer`): a forwarded prefix is answered by the real server through fetch,
 * ahead of the mock's operations, journaled; the rest is the mock's.
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'

const PAGE = JSON.stringify({ results: [{ id: 'agent-1' }], total: 1 })
let seen: { method?: string; url?: string; body?: string } = {}
let real: Server
let realUrl: string
let mock: MockServer

beforeAll(async () => {
  real = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen = { method: req.method, url: req.url, body: Buffer.concat(chunks).toString() }
      const body = gzipSync(PAGE)
      res.writeHead(201, 'Made Here', {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-real': 'yes',
      })
      res.end(body)
    })
  }).listen(0, '127.0.0.1')
  await once(real, 'listening')
  realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`
  mock = await createMockServer({ forward: { '/v1/agents': realUrl, '/v1/personas': `${realUrl}/api` } })
})
afterAll(() => {
  mock?.close()
  real?.close()
})

it('answers a forwarded prefix from the real server, decoded, and journals it', async () => {
  const answer = await fetch(mock.url('/v1/agents/?limit=2'), { method: 'POST', body: '{"name":"a"}' })
  expect([answer.status, answer.statusText, answer.headers.get('x-real')]).toEqual([201, 'Made Here', 'yes'])
  expect(answer.headers.get('content-encoding'), 'fetch decoded it').toBeNull()
  expect(await answer.text()).toBe(PAGE)
  expect(seen).toEqual({ method: 'POST', url: '/v1/agents/?limit=2', body: '{"name":"a"}' })
  expect(mock.instance.journal.list({ limit: 1 })).toMatchObject([
    { method: 'POST', path: '/v1/agents/', query: 'limit=2', status: 201, origin: realUrl, body: '{"name":"a"}' },
  ])
})

it('forwards over an operation the mock implements (under the URL path), and answers the rest itself', async () => {
  const personas = await fetch(mock.url('/v1/personas/'))
  expect([personas.status, seen.url]).toEqual([201, '/api/v1/personas/'])
  const rules = await fetch(mock.url(`/v1/policies/${mock.fixtures.policies[0]!.id}/rules`))
  expect([rules.status, await rules.json()]).toEqual([401, { detail: 'Not authenticated' }])
})
