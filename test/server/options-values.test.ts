/**
 * startServer and createMockApp refuse an option's value of the wrong kind or out of its range at start, with one
 * sentence naming the option and what it takes, as the CLI refuses its flags: these failed deep inside with a
 * TypeError naming no option (`map is not a function`), or were taken silently (a session limit of 0, a memory
 * budget of -1 bytes, a delay that Node's timers take as 1 ms).
 */
import { expect, it } from 'vitest'
import { createMockApp, startServer } from 'agent-console-mock/server'

const refusals: Array<[string, object, string]> = [
  [
    'cors',
    { cors: 'yes' },
    `cors must be true (answer CORS as Starlette's CORSMiddleware) or false (plain FastAPI), got "yes".`,
  ],
  [
    'allowOrigins',
    { allowOrigins: 'x' },
    `allowOrigins must be a list of origins such as ['http://app.test:3000'], got "x".`,
  ],
  [
    'allowedHosts',
    { allowedHosts: 'mock.test' },
    `allowedHosts must be a list of host names such as ['mock.test'], got "mock.test".`,
  ],
  ['control', { control: 'no' }, 'control must be true (serve the control API under /__mock/) or false, got "no".'],
  ['sessionLimit 0', { sessionLimit: 0 }, 'sessionLimit must be an integer from 1 to 10000 (session worlds), got 0.'],
  [
    'sessionLimit -1',
    { sessionLimit: -1 },
    'sessionLimit must be an integer from 1 to 10000 (session worlds), got -1.',
  ],
  [
    'sessionLimit 1.5',
    { sessionLimit: 1.5 },
    'sessionLimit must be an integer from 1 to 10000 (session worlds), got 1.5.',
  ],
  ['maxMemoryBytes 0', { maxMemoryBytes: 0 }, 'maxMemoryBytes must be an integer of 1 or more (bytes), got 0.'],
  ['maxMemoryBytes -1', { maxMemoryBytes: -1 }, 'maxMemoryBytes must be an integer of 1 or more (bytes), got -1.'],
  ['journalSize -1', { journalSize: -1 }, 'journalSize must be an integer of 1 or more (entries), got -1.'],
  [
    'forward',
    { forward: 5 },
    `forward must map path prefixes to URLs, such as { '/v1/agents': 'http://127.0.0.1:8000' }, got 5.`,
  ],
  [
    'forwardTimeouts',
    { forwardTimeouts: { answerTimeoutMs: -1 } },
    'forwardTimeouts.answerTimeoutMs must be an integer from 1 to 3600000 (milliseconds), got -1.',
  ],
  [
    'forwardTimeouts (a misspelt name)',
    { forwardTimeouts: { answerTimeout: 5 } },
    'forwardTimeouts: unknown option "answerTimeout"; the options are connectTimeoutMs, answerTimeoutMs.',
  ],
  [
    'delayMs past a timer',
    { delayMs: 1e12 },
    'delayMs must be at most 2147483647 milliseconds (about 24.8 days; a timer takes a longer delay as 1 ms), got 1000000000000.',
  ],
]

it.each(refusals)('createMockApp refuses %s, naming it', async (_, options, message) => {
  await expect(createMockApp(options as never)).rejects.toThrow(message)
})

it.each([
  ...refusals,
  ['stateFile 5', { stateFile: 5 }, 'stateFile must be the path of the file to keep the world in, got 5.'],
  [
    'an empty stateFile',
    { stateFile: ' ' },
    'stateFile is empty: name the file to keep the world in, or leave the option out to keep none.',
  ],
  [
    'host 5',
    { host: 5 },
    "host must be the host name or address to listen on, such as '127.0.0.1' or '0.0.0.0', got 5.",
  ],
  ['insecureDevSecret', { insecureDevSecret: 'yes' }, 'insecureDevSecret must be true or false, got "yes".'],
] as Array<[string, object, string]>)('startServer refuses %s, naming it', async (_, options, message) => {
  const refusal = await startServer({ port: 0, ...options } as never).then(
    async (running) => {
      await running.close()
      return 'started'
    },
    (error: Error) => error.message,
  )
  expect(refusal).toBe(message)
})

it("says an empty stateFile's option name to an API caller, not the CLI's flag", async () => {
  await expect(startServer({ port: 0, stateFile: '' })).rejects.toThrow(/^stateFile is empty/)
})

it('takes the values at the ends of each range', async () => {
  const app = await createMockApp({
    personasPerTeam: 0,
    sessionLimit: 10_000,
    maxMemoryBytes: 1,
    journalSize: 1,
    delayMs: 2 ** 31 - 1,
    forward: {},
    forwardTimeouts: { connectTimeoutMs: 1, answerTimeoutMs: 3_600_000 },
    cors: false,
    allowOrigins: [],
  })
  expect(app.profile).toBeDefined()
})
