/**
 * An app whose tests already have an msw `setupServer` of their own (for its other APIs) adds the mock's
 * handlers to it, as docs/testing-kits.md says: one server intercepts `fetch`, and both answer.
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHandlers, MockInstance } from 'agent-console-mock'

const instance = await MockInstance.create({ seed: 4, personasPerTeam: 9 })
const server = setupServer(
  http.get('https://auth.example/me', () => HttpResponse.json({ sub: 'ada' })),
  ...createHandlers({ instance, baseUrl: 'http://api.example', claim: 'all' }),
)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

const reader = () => ({ authorization: `Bearer ${instance.fixtures.tokens.team_reader}` })

it('answers the app’s own handlers and the mocked API side by side', async () => {
  expect(await (await fetch('https://auth.example/me')).json()).toEqual({ sub: 'ada' })
  const page = await fetch('http://api.example/v1/personas/?limit=1', { headers: reader() })
  expect(page.status).toBe(200)
  expect(((await page.json()) as { total: number }).total).toBe(9)
})

it('leaves another origin to the server’s onUnhandledRequest', async () => {
  await expect(fetch('http://elsewhere.example/v1/personas/', { headers: reader() })).rejects.toThrow()
})
