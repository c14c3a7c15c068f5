/**
 * A page of another site cannot start sessions (issue #25 item 10): with `--sessions 5`, five
 * cross-origin GETs to `/__session/<new>/__mock/health` used to start five sessions and let the
 * developer's go, with what it held. Such a request may use a session that exists, not start one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

let running: RunningServer
let call: ReturnType<typeof http>

beforeAll(async () => {
  running = await startTestServer({ seed: 31, personasPerTeam: 4, sessionLimit: 5 })
  call = http(running)
})
afterAll(() => running.close())

const evil = { origin: 'https://evil.example' }
const sessionKeys = async () =>
  ((await call('/__mock/sessions')).json.sessions as Array<{ key: string }>).map((session) => session.key)

/** Session "mine", reset to 2 personas a team: what a foreign page must not take away. */
async function arrangeMine(): Promise<void> {
  const reset = await call('/__session/mine/__mock/reset', { method: 'POST', json: { personas: 2 } })
  expect(reset.status, reset.text).toBe(200)
}

const personasOfMine = async () =>
  (
    await call('/__session/mine/v1/personas/?limit=1', {
      token: running.sessions.primary.fixtures.tokens.team_reader,
    })
  ).json.total

it('refuses foreign pages that would start sessions, and keeps the developer’s', async () => {
  await arrangeMine()
  for (let i = 0; i < 5; i++) {
    const health = await call(`/__session/drive-by-${i}/__mock/health`, { headers: evil })
    expect(health.status, health.text).toBe(403)
    expect(health.json.detail).toMatch(/https:\/\/evil\.example may use session "drive-by-\d" once it exists/)
    expect(health.json.detail).toMatch(/--allow-origin https:\/\/evil\.example/)
    const api = await call(`/__session/api-${i}/v1/personas/`, { headers: evil })
    expect(api.status, 'the API names the session in its path too').toBe(403)
    const header = await call('/__mock/health', { headers: { ...evil, 'x-mock-session': `header-${i}` } })
    expect(header.status, 'or in a header').toBe(403)
  }
  // Without an Origin (an image or a script of another site), the browser still says where it came from.
  const image = await call('/__session/pixel/__mock/health', { headers: { 'sec-fetch-site': 'cross-site' } })
  expect([image.status, image.json.detail]).toEqual([
    403,
    "Sessions are started by the developer's own pages and tools: a page of another site may use session " +
      '"pixel" once it exists, not start it.',
  ])
  expect(await sessionKeys()).toEqual(['mine'])
  expect(await personasOfMine(), 'session "mine" keeps its reset').toBe(2)
})

it('lets a foreign page use a session that exists, and the developer’s pages start any', async () => {
  await arrangeMine()
  const used = await call('/__session/mine/__mock/health', { headers: evil })
  expect(used.status).toBe(200)
  const loopbackPage = await call('/__session/from-vite/__mock/health', {
    headers: { origin: 'http://localhost:5173', 'sec-fetch-site': 'cross-site' },
  })
  expect(loopbackPage.status, 'a loopback page is the developer’s').toBe(200)
  const tool = await call('/__session/from-curl/__mock/health')
  expect(tool.status).toBe(200)
  const sameOrigin = await call('/__session/from-docs/__mock/health', { headers: { 'sec-fetch-site': 'same-origin' } })
  expect(sameOrigin.status).toBe(200)
  expect(await sessionKeys()).toEqual(expect.arrayContaining(['mine', 'from-vite', 'from-curl', 'from-docs']))
  expect(await personasOfMine()).toBe(2)
})
