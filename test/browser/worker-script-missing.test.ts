/**
 * startMockWorker where no worker script is served at its URL (no mockServiceWorker() plugin, no `msw init`): the
 * dev server answers its HTML page or a 404 there, and msw's refusal alone names neither the plugin nor `msw init`.
 * Every start in the page says so, not only the first: msw 3's failed start leaves its WebSocket interceptor applied,
 * and the next start tripped over it (`Failed to replace a global value at "WebSocket"`). The Vitest kit starts its
 * worker again in each test of a file whose start failed.
 */
import { expect, test } from 'vitest'
import { startMockWorker } from 'agent-console-mock/browser'

const serviceWorkerUrl = '/no-worker-here/mockServiceWorker.js'

/** What a start with no worker script served rejects with. */
const failedStart = (): Promise<unknown> =>
  startMockWorker({ seed: 1, personasPerTeam: 1, serviceWorkerUrl }).then(
    () => undefined,
    (reason: unknown) => reason,
  )

test('says how to serve the worker script, with msw’s error as the cause', async () => {
  const error = await failedStart()
  expect(error).toBeInstanceOf(Error)
  const { message, cause } = error as Error
  expect(message).toMatch(
    /^agent-console-mock: msw's service worker could not be registered from \/no-worker-here\/mockServiceWorker\.js: /,
  )
  expect(message).toContain("mockServiceWorker() from 'agent-console-mock/vite'")
  expect(message).toContain('npx msw init <public dir>')
  expect(String((cause as Error).message)).toMatch(/^\[MSW\] Failed to register/)
})

test('every later start in the page says the same, not msw’s internals', async () => {
  for (const _ of [2, 3]) {
    const error = await failedStart()
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/^agent-console-mock: msw's service worker could not be registered from /)
  }
})
