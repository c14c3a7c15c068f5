import { delay } from 'msw'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../hosts/server/start.js'
import { ContractClient, RequestTimeoutError, ServerUnreachableError, verify } from '../../contract/index.js'
import { override, PERSONAS } from './support/variant.js'
import { closedPort, startMock, verifyOptionsFor } from './support/mock.js'

let slow: RunningServer
beforeAll(async () => {
  // Lists personas for a signed-in caller only after a second: every such request outlives a short timeout.
  const slowWhenSignedIn = override('get', PERSONAS, async (request) => {
    if (request.headers.has('authorization')) await delay(1_000)
    return undefined
  })
  slow = await startMock({ handlers: [slowWhenSignedIn] })
})
afterAll(() => slow.close())

it('gives up on a request after the timeout and says which request', async () => {
  const client = new ContractClient(slow.url, 100)
  const error = await client.send({ method: 'GET', path: '/v1/personas/', query: { limit: 5 }, auth: { label: 'token', header: 'Bearer x' } }).catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(RequestTimeoutError)
  expect(error).toMatchObject({ message: 'no answer within 100 ms', request: 'GET /v1/personas/?limit=5 (token)' })
})

it('fails the checks whose requests time out, with the timeout as evidence, and finishes', async () => {
  const started = Date.now()
  const report = await verify(verifyOptionsFor(slow, { timeoutMs: 150 }))
  const limitRange = report.checks.find((check) => check.id === 'validation.limit-range')!
  expect(limitRange.status).toBe('failed')
  expect(limitRange.evidence[0]).toMatchObject({ expected: 'an answer', got: 'no answer within 150 ms' })
  expect(report.checks.find((check) => check.id === 'auth.no-token')?.status, 'requests without a token are not slowed').toBe('passed')
  expect(Date.now() - started).toBeLessThan(10_000)
})

it('skips what is left once the run deadline passes', async () => {
  const started = Date.now()
  const report = await verify(verifyOptionsFor(slow, { timeoutMs: 150, deadlineMs: 400 }))
  const late = report.checks.filter((check) => check.reason === 'the run reached its deadline before this check')
  expect(late.length).toBeGreaterThan(0)
  expect(report.checks.at(-1)?.reason).toBe('the run reached its deadline before this check')
  expect(Date.now() - started).toBeLessThan(2_000)
})

it('throws a clear error when nothing listens at the base URL', async () => {
  const error = await verify({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: 't' }).catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(ServerUnreachableError)
  expect((error as Error).message).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused: is the server running on that port\?$/)
})

it('refuses options it cannot run with', async () => {
  await expect(verify({ baseUrl: 'staging.example.com', token: 't' })).rejects.toThrow('baseUrl must be an http(s) URL')
  await expect(verify({ baseUrl: slow.url, token: '' })).rejects.toThrow('token is required')
  await expect(verify({ baseUrl: slow.url, token: 't', timeoutMs: 0 })).rejects.toThrow('timeoutMs must be a positive integer')
})
