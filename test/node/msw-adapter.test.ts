import { createHook } from 'node:async_hooks'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { readsUnhandledFrame, unsupportedNode } from '../../node/msw-adapter.js'

// node/msw-adapter.ts on the installed msw: the tiers run on msw 2 (npm test, npm run test:lowest-msw)
// and on msw 3 (npm run test:msw3), so each test below holds on both majors.

const msw: string = createRequire(import.meta.url)('msw/package.json').version

/** A real server beside the mock: what an unmocked request reaches when msw lets it through. */
let other: Server
let otherUrl: string
let reached = 0
beforeAll(async () => {
  other = createServer((_req, res) => {
    reached++
    res.end('the network')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/personas/`
})
afterAll(() => new Promise((resolve) => other.close(resolve)))

let mock: MockServer | undefined
afterEach(() => {
  mock?.close()
  mock = undefined
  reached = 0
  vi.restoreAllMocks()
})

/** msw's console output during `run`: it prints `[MSW] Warning: ...` and `[MSW] Error: ...` there. */
async function printed(run: () => Promise<unknown>): Promise<string> {
  const lines: unknown[] = []
  vi.spyOn(console, 'warn').mockImplementation((...args) => void lines.push(...args))
  vi.spyOn(console, 'error').mockImplementation((...args) => void lines.push(...args))
  await run()
  return lines.join('\n')
}

it(`reads the installed msw's major from its server (msw ${msw})`, () => {
  expect(readsUnhandledFrame(setupServer())).toBe(Number(msw.split('.')[0]) >= 3)
})

it('refuses an unmocked request by default, and says so', async () => {
  mock = await createMockServer({ personasPerTeam: 1 })
  const log = await printed(() => expect(fetch(otherUrl)).rejects.toThrow())
  expect([reached, log]).toEqual([0, expect.stringContaining('[MSW] Error')])
  expect((await fetch(mock.url('/v1/personas/'))).status, 'the mock still answers').toBe(401)
})

it("passes an unmocked request on with a warning under 'warn'", async () => {
  mock = await createMockServer({ personasPerTeam: 1, onUnhandledRequest: 'warn' })
  let text = ''
  const log = await printed(async () => (text = await (await fetch(otherUrl)).text()))
  expect([text, reached, log]).toEqual(['the network', 1, expect.stringContaining('[MSW] Warning')])
})

it("passes an unmocked request on without a word under 'bypass'", async () => {
  mock = await createMockServer({ personasPerTeam: 1, onUnhandledRequest: 'bypass' })
  let text = ''
  const log = await printed(async () => (text = await (await fetch(otherUrl)).text()))
  expect([text, reached, log]).toEqual(['the network', 1, ''])
})

it.each(['http://localhost', 'https://api.example.test'])(
  'closes the TCP handle of every request it answered on %s (msw 3 leaves one a request open)',
  async (baseUrl) => {
    mock = await createMockServer({ personasPerTeam: 1, baseUrl })
    const headers = { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` }
    // A handle's `destroy` comes once it is closed: the handles opened below and not closed yet.
    const open = new Set<number>()
    const hook = createHook({
      init: (id, type) => void (type === 'TCPWRAP' && open.add(id)),
      destroy: (id) => void open.delete(id),
    }).enable()
    try {
      for (let request = 0; request < 20; request++) {
        const response = await fetch(mock.url('/v1/personas/'), { headers })
        expect([response.status, ((await response.json()) as { total: number }).total]).toEqual([200, 1])
      }
      // Closed sockets go at once, a pooled one after undici's keep-alive (4 s).
      await vi.waitFor(() => expect(open.size).toBe(0), { timeout: 30_000, interval: 50 })
    } finally {
      hook.disable()
    }
  },
  40_000,
)

it('closes once: a second close() neither throws nor frees the place of a newer mock', async () => {
  const first = await createMockServer({ personasPerTeam: 1 })
  first.close()
  mock = await createMockServer({ personasPerTeam: 1 })
  expect(() => first.close()).not.toThrow()
  await expect(createMockServer({ personasPerTeam: 1 })).rejects.toThrow(/already intercepting fetch/)
})

it('runs on this Node with the installed msw, and says plainly when msw 3 is on a Node older than 22.12', () => {
  const server = setupServer()
  expect(unsupportedNode(server)).toBeUndefined()
  // msw 3's server (it has a readyState) on Node 20, as npm installs it with only an engine warning.
  const msw3 = Object.create(server, { readyState: { value: 0 } }) as typeof server
  expect(unsupportedNode(msw3, '20.20.2')).toBe(
    'msw 3 needs Node 22.12 or later, and this is Node 20.20.2: install msw 2 beside agent-console-mock (npm install --save-dev msw@2), or run a newer Node',
  )
  expect(unsupportedNode(msw3, '22.11.0')).toMatch(/^msw 3 needs Node 22\.12/)
  expect(unsupportedNode(msw3, '22.12.0')).toBeUndefined()
  expect(unsupportedNode(msw3, '24.1.0')).toBeUndefined()
  // msw 2's server runs on Node 20.
  const msw2 = setupServer()
  if (!readsUnhandledFrame(msw2)) expect(unsupportedNode(msw2, '20.0.0')).toBeUndefined()
})
