// @vitest-environment jsdom
/**
 * A frontend's component tests run in Vitest's jsdom environment, whose globals (TextEncoder among them) come
 * from jsdom's own realm: their typed arrays are not this realm's `Uint8Array`. The mock must work there as in
 * plain Node, app code fetching relative URLs on the page's origin.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'

/** `location.origin` in the app's code: this project's types have no DOM. */
const pageOrigin = (globalThis as unknown as { location: { origin: string } }).location.origin

let mock: MockServer
beforeAll(async () => {
  mock = await createMockServer({ seed: 3, baseUrl: pageOrigin })
})
afterEach(async () => {
  mock.resetHandlers()
  await mock.reset()
})
afterAll(() => mock.close())

it('runs where TextEncoder is jsdom’s, whose bytes are another realm’s', () => {
  expect(new TextEncoder().encode('a') instanceof Uint8Array).toBe(false)
})

it('signs tokens and answers the app’s relative requests', async () => {
  const token = await mock.mintToken({ sub: 'u', team_id: mock.fixtures.teams[0]!.id, permissions: ['persona:read'] })
  const res = await fetch('/v1/personas/?limit=2', { headers: { authorization: `Bearer ${token}` } })
  expect(res.status).toBe(200)
  expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(2)
})

it('keeps a bulk add and records it in the contract', async () => {
  const dimension = mock.fixtures.dimensions[0]!.id
  const res = await fetch(`/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: [{ value: 'from-jsdom' }] }),
  })
  expect(res.status).toBe(201)
  expect(mock.world.values.findFirst((q) => q.where({ value: 'from-jsdom' }))).toBeDefined()
  const contract = JSON.stringify(await mock.contract())
  expect(contract).toContain('from-jsdom')
})
