import { setupWorker } from 'msw/browser'
import { afterEach, expect, test, vi } from 'vitest'
import { NOT_THE_API, printed } from './support/unhandled.js'

// The other side of msw-adapter.test.ts: what the mock must silence is there to silence.

afterEach(() => void vi.restoreAllMocks())

test("msw's own default warns about a request no handler answers", async () => {
  const worker = setupWorker()
  await worker.start({ quiet: true })
  try {
    expect(await printed(() => fetch(NOT_THE_API))).toContain('[MSW] Warning')
  } finally {
    await worker.stop()
  }
})
