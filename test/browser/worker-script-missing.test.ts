/**
 * startMockWorker where no worker script is served at its URL (no mockServiceWorker() plugin, no `msw init`): the
 * dev server answers its HTML page or a 404 there, and msw's refusal alone names neither the plugin nor `msw init`.
 */
import { expect, test } from 'vitest'
import { startMockWorker } from 'agent-console-mock/browser'

test('says how to serve the worker script, with msw’s error as the cause', async () => {
  const serviceWorkerUrl = '/no-worker-here/mockServiceWorker.js'
  const error: unknown = await startMockWorker({ seed: 1, personasPerTeam: 1, serviceWorkerUrl }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(Error)
  const { message, cause } = error as Error
  expect(message).toMatch(
    /^agent-console-mock: msw's service worker could not be registered from \/no-worker-here\/mockServiceWorker\.js: /,
  )
  expect(message).toContain("mockServiceWorker() from 'agent-console-mock/vite'")
  expect(message).toContain('npx msw init <public dir>')
  expect(String((cause as Error).message)).toMatch(/^\[MSW\] Failed to register/)
})
