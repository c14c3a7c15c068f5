/**
 * The embedding entries check their options at start, as the CLI checks its flags: a mistake is refused with a
 * sentence naming the option, where it used to be ignored (an unknown name) or to fail deep inside (a port).
 */
import { expect, it } from 'vitest'
import { createMockApp, startServer } from 'agent-console-mock/server'

it.each([
  ['an unknown option', { prot: 4010 }, 'startServer: unknown option "prot"; the options are seed, '],
  ['a port that is no number', { port: 'abc' }, 'port must be an integer from 0 (any free port) to 65535, got "abc".'],
  ['a port past 65535', { port: 70_000 }, 'port must be an integer from 0 (any free port) to 65535, got 70000.'],
  ['an empty jwtSecret', { port: 0, jwtSecret: '' }, 'jwtSecret must be a non-empty string'],
  ['a body limit of 0', { port: 0, maxBodyBytes: 0 }, 'maxBodyBytes must be an integer from 1 to 1073741824'],
])('refuses %s at startServer', async (_, options, message) => {
  await expect(startServer(options as never)).rejects.toThrow(message)
})

it('refuses an option createMockApp does not take, though startServer does', async () => {
  await expect(createMockApp({ port: 0 } as never)).rejects.toThrow('createMockApp: unknown option "port"')
})

it('says that startServer takes the OpenAPI document itself, not its path', async () => {
  await expect(startServer({ port: 0, openapi: './openapi.json' as never })).rejects.toThrow(
    'The OpenAPI document must be the parsed JSON object, got "./openapi.json": here it is not read from a file or URL',
  )
})
