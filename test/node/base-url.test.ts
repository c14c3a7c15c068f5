/**
 * `baseUrl` is checked before the world is seeded: anything but an absolute http(s) URL without a path is refused
 * with an error that names the option, and a mock can be created right after.
 */
import { expect, it } from 'vitest'
import { createMockServer } from 'agent-console-mock/node'

it.each(['not a url', '/v1', 'ftp://files.example'])('refuses baseUrl %j naming the option', async (baseUrl) => {
  await expect(createMockServer({ baseUrl })).rejects.toThrow(
    `baseUrl must be an absolute http or https URL, such as http://localhost:3000, got ${JSON.stringify(baseUrl)}.`,
  )
})

it.each(['http://localhost:3000/api', 'http://localhost:3000/?x=1', 'http://localhost:3000/#top'])(
  'refuses baseUrl %j with a path, query or fragment, saying what to give, and starts after a refusal',
  async (baseUrl) => {
    await expect(createMockServer({ baseUrl, personasPerTeam: 1 })).rejects.toThrow(
      `baseUrl is the origin the API answers on (at /v1 under it), without a path: give "http://localhost:3000", got ${JSON.stringify(baseUrl)}.`,
    )
    const mock = await createMockServer({ baseUrl: 'http://localhost:3000/', personasPerTeam: 1 })
    try {
      expect(mock.baseUrl).toBe('http://localhost:3000')
      expect((await fetch(mock.url('/v1/personas/'))).status).toBe(401)
    } finally {
      mock.close()
    }
  },
)
