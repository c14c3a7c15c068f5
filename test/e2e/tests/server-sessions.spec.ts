/**
 * The standalone-server fixture (agent-console-mock/playwright/server): each test gets a session
 * of its own on the one server, its page's requests carry it (extraHTTPHeaders), an app that
 * fetches on the server is given it in the path (`mockSession.baseUrl`), and it is dropped after
 * the test. Two tests, run at the same time by the two workers, add the same value: each must
 * see it created, which it would not had either seen the other's write.
 */
import { expect, test } from 'agent-console-mock/playwright/server'
import { Demo } from '../support/demo.js'
import { API_URL } from '../support/servers.js'

test.use({ mockServerUrl: API_URL })
test.describe.configure({ mode: 'parallel' })

/** The sessions this worker's tests used: none may outlive its test. */
const used: string[] = []

test.afterAll(async () => {
  const listed = (await (await fetch(`${API_URL}/__mock/sessions`)).json()) as { sessions: Array<{ key: string }> }
  for (const key of used) expect(listed.sessions.map((session) => session.key)).not.toContain(key)
})

for (const name of ['first', 'second']) {
  test(`${name} test writes in its own session, by header and by path`, async ({ page, mock, mockSession }) => {
    used.push(mockSession.key)
    expect(mockSession.baseUrl).toBe(`${API_URL}/__session/${mockSession.key}`)
    const demo = new Demo(page)

    // The page calls the server itself: extraHTTPHeaders gives its requests the test's X-Mock-Session.
    await demo.open({ mode: 'server', api: API_URL })
    await demo.role('super_admin')
    await demo.bulkAdd('Region', ['Shared server-fixture probe'])
    await expect(demo.bulk.summary()).toHaveText('1 created, 0 skipped as duplicates.')

    // As an app rendered on the server would: the session in the path, the same world.
    await demo.open({ mode: 'server', api: mockSession.baseUrl })
    await demo.role('super_admin')
    await demo.bulkAdd('Region', ['Shared server-fixture probe'])
    await expect(demo.bulk.skipped()).toHaveText(['Shared server-fixture probe'])

    const requests = await mock.requests({ path: '/values/bulk' })
    expect(requests.map(({ path, status }) => [path.replace(/\/v1\/.*/, ''), status])).toEqual([
      ['', 201],
      [`/__session/${mockSession.key}`, 201],
    ])
    expect((await mock.fixtures()).seed).toBe(1)
  })
}

test('drives the session over HTTP: snapshot, restore, scenario, faults, reset', async ({ mock, mockSession }) => {
  used.push(mockSession.key)
  const fixtures = await mock.fixtures()
  const bulk = (value: string) =>
    fetch(`${mockSession.baseUrl}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ values: [{ value }] }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown[] }))
  const personas = () =>
    fetch(`${mockSession.baseUrl}/v1/personas/`, {
      headers: { authorization: `Bearer ${fixtures.tokens.team_reader}` },
    })

  expect((await bulk('kept')).body).toHaveLength(1)
  await mock.snapshot('arranged')
  expect((await bulk('later')).body).toHaveLength(1)
  await mock.restore('arranged')
  expect((await bulk('later')).body, 'restored: "later" is new again').toHaveLength(1)
  expect((await bulk('kept')).body, 'restored: "kept" is still there').toHaveLength(0)

  await mock.faults({ error: { status: 503 } })
  expect((await personas()).status).toBe(503)
  await mock.reset()
  expect((await personas()).status).toBe(200)

  await mock.scenario('empty-team')
  const empty = (await (await personas()).json()) as { total: number }
  expect(empty.total).toBe(0)
})
