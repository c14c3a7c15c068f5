import { afterEach, expect, test, vi } from 'vitest'
import { startMockWorker } from 'agent-console-mock/browser'
import { NOT_THE_API, printed } from './support/unhandled.js'

// browser/msw-adapter.ts on the installed msw, in the page: startMockWorker passes on what the mock
// does not answer without a word, on msw 2 and msw 3 alike. msw-default.test.ts shows that msw
// itself warns about that request. It is a file of its own, so a page of its own: on msw 2.12, a
// worker started in a page whose first worker had just stopped answered nothing.

afterEach(() => void vi.restoreAllMocks())

test('startMockWorker passes a request it does not answer on without a warning, and answers the API', async () => {
  const mock = await startMockWorker({ personasPerTeam: 1 })
  try {
    let status = 0
    const log = await printed(async () => {
      await fetch(NOT_THE_API)
      status = (await fetch('/v1/personas/')).status
    })
    expect([log, status]).toEqual(['', 401])
  } finally {
    await mock.stop()
  }
})
