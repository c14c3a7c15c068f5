import { delay } from 'msw'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../server/start.js'
import { ContractClient, RequestTimeoutError, ServerUnreachableError, verify } from '../../verify/index.js'
import { override, PERSONAS } from './support/variant.js'
import { closedPort, startMock, verifyOptionsFor } from './support/mock.js'

/**
 * A timeout the answers that are not held back always beat, however loaded the machine: a
 * check that fails for want of an answer here fails because its request was held back.
 */
const GENEROUS_TIMEOUT_MS = 20_000

let slow: RunningServer
beforeAll(async () => {
  // Never answers a signed-in caller's list of personas with limit=0 (the first request of
  // validation.limit-range, and of no other check): only a timeout ends such a request, and
  // it is the only one held back.
  const holdsLimitZero = override('get', PERSONAS, async (request) => {
    if (request.headers.has('authorization') && new URL(request.url).searchParams.get('limit') === '0')
      await delay('infinite')
    return undefined
  })
  slow = await startMock({ handlers: [holdsLimitZero] })
})
afterAll(() => slow.close())

it('gives up on a request after the timeout and says which request', async () => {
  const client = new ContractClient(slow.url, 100)
  const error = await client
    .send({ method: 'GET', path: '/v1/personas/', query: { limit: 0 }, auth: { label: 'token', header: 'Bearer x' } })
    .catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(RequestTimeoutError)
  expect(error).toMatchObject({ message: 'no answer within 100 ms', request: 'GET /v1/personas/?limit=0 (token)' })
})

it(
  'fails the checks whose requests time out, with the timeout as evidence, and finishes',
  async () => {
    const report = await verify(verifyOptionsFor(slow, { timeoutMs: GENEROUS_TIMEOUT_MS }))
    const limitRange = report.checks.find((check) => check.id === 'validation.limit-range')!
    expect(limitRange.status).toBe('failed')
    expect(limitRange.evidence[0]).toMatchObject({
      expected: 'an answer',
      got: `no answer within ${GENEROUS_TIMEOUT_MS} ms`,
    })
    // One request timing out fails its check and no other: the run goes on, and the rest pass.
    expect(report.checks.filter((check) => check.status === 'failed').map((check) => check.id)).toEqual([
      'validation.limit-range',
    ])
    expect(report.checks.find((check) => check.id === 'auth.no-token')?.status).toBe('passed')
  },
  60_000 + GENEROUS_TIMEOUT_MS,
)

it('skips what is left once the run deadline passes', async () => {
  // A deadline of 1 ms has passed once the run has sent its first requests, however fast the machine.
  const report = await verify(verifyOptionsFor(slow, { timeoutMs: GENEROUS_TIMEOUT_MS, deadlineMs: 1 }))
  const late = report.checks.filter((check) => check.reason === 'the run reached its deadline before this check')
  expect(late.length).toBeGreaterThan(0)
  expect(report.checks.at(-1)?.reason).toBe('the run reached its deadline before this check')
  expect(
    late.map((check) => check.status),
    'late checks are skipped, not failed',
  ).toEqual(late.map(() => 'skipped'))
})

it('throws a clear error when nothing listens at the base URL', async () => {
  const error = await verify({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: 't' }).catch(
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ServerUnreachableError)
  expect((error as Error).message).toMatch(
    /^Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused: is the server running on that port\?$/,
  )
})

it('refuses options it cannot run with', async () => {
  await expect(verify({ baseUrl: 'staging.example.com', token: 't' })).rejects.toThrow('baseUrl must be an http(s) URL')
  await expect(verify({ baseUrl: slow.url, token: '' })).rejects.toThrow('token is required')
  await expect(verify({ baseUrl: slow.url, token: 't', timeoutMs: 0 })).rejects.toThrow(
    'timeoutMs must be a positive integer',
  )
})
