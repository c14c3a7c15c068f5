/**
 * The standalone-server fixture (agent-console-mock/playwright/server) when no server answers at `mockServerUrl`:
 * one sentence naming the option, the URL and how to start a server, not undici's `TypeError: fetch failed`.
 */
import { expect, it } from 'vitest'
import { type MockSession, ServerMock } from 'agent-console-mock/playwright/server'

/** A port in the test's range that nothing listens on. */
const serverUrl = 'http://127.0.0.1:4614'
const session: MockSession = {
  key: 'pw-nobody-home',
  serverUrl,
  baseUrl: `${serverUrl}/__session/pw-nobody-home`,
  headers: { 'x-mock-session': 'pw-nobody-home' },
}

/** What a call of the fixture rejects with. */
async function refusal(call: () => Promise<unknown>): Promise<Error> {
  const error = await call().then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(error)}`)
  return error
}

it('says which option names no running server, and how to start one, when the session is dropped', async () => {
  // The fixture's first request: it drops a session a run cut short may have left.
  const error = await refusal(() => new ServerMock(session).drop())
  expect(error.message).toBe(
    'agent-console-mock/playwright/server: no mock server answers at http://127.0.0.1:4614, the mockServerUrl ' +
      "option (ECONNREFUSED): start one before the tests (`npx agent-console-mock --port 4614`, or Playwright's " +
      "webServer in playwright.config.ts: { command: 'npx agent-console-mock --port 4614', url: " +
      "'http://127.0.0.1:4614/__mock/health' }), or set mockServerUrl to the server that runs.",
  )
  expect(error.cause, "undici's error stays the cause").toBeInstanceOf(TypeError)
})

it('says the same for any control call', async () => {
  const error = await refusal(() => new ServerMock(session).fixtures())
  expect(error.message).toMatch(
    /^agent-console-mock\/playwright\/server: no mock server answers at http:\/\/127\.0\.0\.1:4614, the mockServerUrl option/,
  )
})
