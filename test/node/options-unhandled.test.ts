/**
 * createMockServer's onUnhandledRequest takes a function, as msw does (it refused one: "got undefined"), called in
 * the shape msw 2 calls it on msw 2 and msw 3 alike: msw 3 reads `onUnhandledFrame` and calls it with a frame.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createMockServer, type UnhandledRequestCallback } from 'agent-console-mock/node'

/** A real server on the loopback, which a request the callback lets go reaches. */
let real: Server
let realUrl: string
/** The paths the real server was asked for. */
const reached: string[] = []

beforeAll(async () => {
  real = createServer((request, response) => {
    reached.push(request.url ?? '')
    response.end('the real server')
  })
  await new Promise<void>((resolve) => real.listen(4632, '127.0.0.1', resolve))
  realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => real.close(() => resolve())))

/** Runs `use` with a mock whose unhandled requests go to `callback`. */
async function withCallback(callback: UnhandledRequestCallback, use: () => Promise<void>): Promise<void> {
  const mock = await createMockServer({ seed: 1, personasPerTeam: 0, onUnhandledRequest: callback })
  try {
    await use()
  } finally {
    mock.close()
  }
}

it('calls a function with each request no handler answers, which then goes on to the network', async () => {
  const seen: string[] = []
  await withCallback(
    (request) => {
      seen.push(`${request.method} ${request.url}`)
    },
    async () => {
      const answer = await fetch(`${realUrl}/elsewhere?x=1`)
      expect(await answer.text()).toBe('the real server')
      const mocked = await fetch('http://localhost/v1/personas/')
      expect(mocked.status, 'the mock still answers its own origin').toBe(401)
    },
  )
  expect(seen).toEqual([`GET ${realUrl}/elsewhere?x=1`])
})

it('fails a request whose callback throws, as msw does', async () => {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
  await withCallback(
    (request, print) => {
      if (new URL(request.url).pathname !== '/refused') return
      print.error()
      throw new Error('not mocked')
    },
    async () => {
      // msw fails the request: a 500 naming the error (msw 2.15, msw 3), or a rejected fetch (msw 2.12, which says
      // it cannot bypass the request).
      const refused = await fetch(`${realUrl}/refused`).then(
        async (answer) => `${answer.status} ${await answer.text()}`,
        (error: Error) => error.message,
      )
      expect(refused).toMatch(/not mocked|Cannot bypass a request/)
      expect(await (await fetch(`${realUrl}/allowed`)).text()).toBe('the real server')
    },
  )
  expect(reached).not.toContain('/refused')
  expect(String(printed.mock.calls[0])).toContain('intercepted a request without a matching request handler')
  printed.mockRestore()
})

it('still refuses a strategy that is neither a name nor a function, naming what it takes', async () => {
  await expect(createMockServer({ onUnhandledRequest: 'nope' as never })).rejects.toThrow(
    "onUnhandledRequest must be one of 'error', 'warn', 'bypass' or a function (request, print) => void, got \"nope\".",
  )
})
