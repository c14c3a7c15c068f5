import { expect, it } from 'vitest'
import { createCore, MockInstance } from '../../handlers/index.js'

const BASE = 'http://api.test:8000'
const core = createCore({ instance: await MockInstance.create({ seed: 4, personasPerTeam: 4 }), baseUrl: BASE })
const claims = (path: string) => core.claims(new Request(BASE + path))

it("claims the API and the control API, in a session's path too, and nothing else of its origin", () => {
  expect(claims('/v1/personas/')).toBe(true)
  expect(claims('/__mock/health')).toBe(true)
  expect(claims('/__session/worker-1/v1/personas/'), "the API under a session's path").toBe(true)
  expect(claims('/__session/worker-1/__mock/state'), "the control API under a session's path").toBe(true)
  expect(claims('/app/page')).toBe(false)
  expect(claims('/__session/worker-1/app/page')).toBe(false)
  expect(core.claims(new Request('http://elsewhere.test/v1/personas/'))).toBe(false)
})

it('answers the request it claimed, the URL parsed for the claim serving the answer too', async () => {
  const request = new Request(`${BASE}/__session/worker-1/v1/personas/?limit=1`)
  expect(core.claims(request)).toBe(true)
  const response = await core.fetch(request)
  expect(response.status).toBe(401)
  expect(await response.json()).toEqual({ detail: 'Not authenticated' })
})
