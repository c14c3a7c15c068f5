/**
 * A control token that guards nothing is refused at start: empty (a `--control-token "$UNSET"`, which
 * a request's empty `X-Mock-Control-Token;` header matched) or short enough to guess. The CLI's
 * refusal is in test/cli/cli.test.ts's style: tested here through the public start functions.
 */
import { expect, it } from 'vitest'
import { createMockApp, startProxy, startServer } from 'agent-console-mock/server'
import { startTestServer } from '../support/server.js'

const SECRET = 'a-secret-of-the-team-only-0123456789'

it.each(['', '   ', 'short', 'fifteen-chars!!'])('refuses the control token %j on every start', async (token) => {
  const refusal = /the control token is (empty|\d+ characters long): give one of at least 16 characters/
  await expect(startServer({ port: 0, controlToken: token })).rejects.toThrow(refusal)
  await expect(startServer({ port: 0, host: '0.0.0.0', jwtSecret: SECRET, controlToken: token })).rejects.toThrow(
    refusal,
  )
  await expect(createMockApp({ controlToken: token })).rejects.toThrow(refusal)
  await expect(startProxy({ target: 'http://127.0.0.1:9', port: 0, controlToken: token })).rejects.toThrow(refusal)
})

it('takes a token of 16 characters, demands it, and refuses an empty header', async () => {
  const token = 'sixteen-chars-ok'
  const running = await startTestServer({ controlToken: token })
  try {
    const reset = (value: string) =>
      fetch(`${running.url}/__mock/reset`, { method: 'POST', headers: { 'x-mock-control-token': value } })
    expect((await reset('')).status).toBe(401)
    expect((await reset(token)).status).toBe(200)
  } finally {
    await running.close()
  }
})
