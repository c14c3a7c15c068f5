/**
 * What the memory budget counts besides seeded worlds (issue #25 item 8): uploaded snapshots, the
 * records a world stores (its own, and those of a served document's collections), and the journals,
 * recorded contracts and typed overrides of every session. Each used to
 * grow until the server died of "JavaScript heap out of memory"; now each meets the budget first.
 * The built CLI runs with a 128 MB heap and a 16 MB budget, so each would outgrow the heap within
 * a few dozen requests. Loops are bounded by how much the heap could hold, so a server that never
 * refuses fails the test instead of running on; the sessions' tests send a few times the budget,
 * all of which a server that does not count them keeps.
 */
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { startCli, type CliServer } from './support/cli.js'

let server: CliServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

interface Fixtures {
  teams: Array<{ id: string }>
  tokens: Record<'team_reader' | 'super_admin', string>
}

/** The CLI on a 128 MB heap with a 16 MB budget for what it holds. */
async function start(extra: string[] = []): Promise<{ url: string; fixtures: Fixtures }> {
  server = await startCli(['--port', '0', '--quiet', '--max-memory', '16', ...extra], {
    NODE_OPTIONS: '--max-old-space-size=128',
  })
  const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as Fixtures
  return { url: server.url, fixtures }
}

const json = { 'content-type': 'application/json' }

/** The server answers, and said nothing of running out of memory. */
async function expectAlive(url: string): Promise<void> {
  expect((await fetch(`${url}/__mock/health`)).status).toBe(200)
  expect(server!.output()).not.toMatch(/heap out of memory/i)
}

/** Sends `send(i)` until it is refused; the refusal and how many were accepted before it. */
async function untilRefused(most: number, send: (i: number) => Promise<Response>) {
  for (let i = 0; i < most; i++) {
    const answer = await send(i)
    const text = await answer.text()
    if (answer.status === 503) return { accepted: i, detail: (JSON.parse(text) as { detail: string }).detail }
    expect(answer.status, text).toBeLessThan(300)
  }
  throw new Error(`${most} accepted: never refused`)
}

it('refuses an uploaded snapshot past the budget with 503, and answers on', async () => {
  const { url } = await start()
  const state = await (await fetch(`${url}/__mock/state`)).text()
  // Each snapshot is a world of its own (about 1 MB of heap): 200 would take more than the heap.
  const refused = await untilRefused(200, (i) =>
    fetch(`${url}/__mock/snapshots/s${i}`, { method: 'PUT', headers: json, body: state }),
  )
  expect(refused.accepted).toBeGreaterThan(5)
  expect(refused.detail).toMatch(
    /^Not enough memory for this snapshot .*of 16 MB in use\).*delete snapshots.*--max-memory/,
  )
  await expectAlive(url)
  const listed = (await (await fetch(`${url}/__mock/snapshots`)).json()) as { snapshots: unknown[] }
  expect(listed.snapshots, 'the refused one is not kept').toHaveLength(refused.accepted)
  expect((await fetch(`${url}/__mock/snapshots/s0`, { method: 'DELETE' })).status).toBe(204)
  const again = await fetch(`${url}/__mock/snapshots/again`, { method: 'PUT', headers: json, body: state })
  expect(again.status, 'room again once one is deleted').toBe(201)
}, 120_000)

it('refuses records a world would store past the budget with 503, and answers on', async () => {
  const { url, fixtures } = await start()
  const batch = JSON.stringify(
    Array.from({ length: 5000 }, (_, i) => ({ team_id: fixtures.teams[0]!.id, name: `p${i}` })),
  )
  // 5,000 personas a batch (about 4 MB of heap): 40 batches would take more than the heap.
  const refused = await untilRefused(40, () =>
    fetch(`${url}/__mock/records/personas`, { method: 'POST', headers: json, body: batch }),
  )
  expect(refused.accepted).toBeGreaterThan(1)
  expect(refused.detail).toMatch(/^Not enough memory for 5000 more record\(s\) of personas .*--max-memory/)
  await expectAlive(url)
  const page = await fetch(`${url}/v1/personas/?limit=1&team_id=${fixtures.teams[0]!.id}`, {
    headers: { authorization: `Bearer ${fixtures.tokens.team_reader}` },
  })
  const { total } = (await page.json()) as { total: number }
  expect(total, 'every accepted batch is kept, the refused one is not').toBe(60 + refused.accepted * 5000)
}, 120_000)

it('refuses records of a served document past the budget with 503, and answers on', async () => {
  const document = fileURLToPath(new URL('../openapi/openapi-3.0.json', import.meta.url))
  const { url, fixtures } = await start(['--openapi', document])
  const headers = { ...json, authorization: `Bearer ${fixtures.tokens.team_reader}` }
  // The document bounds no description: each agent holds 60 KiB, 2,000 would take more than the heap.
  const description = 'x'.repeat(60 * 1024)
  const agent = { name: 'big', description, kind: 'assistant', config: { model: 'm' }, tags: ['t'] }
  const post = () => fetch(`${url}/v1/agents/`, { method: 'POST', headers, body: JSON.stringify(agent) })
  const refused = await untilRefused(2000, post)
  expect(refused.accepted).toBeGreaterThan(10)
  expect(refused.detail).toMatch(/^Not enough memory for this change .*of 16 MB in use\).*--max-memory/)
  await expectAlive(url)
  // The five seeded agents first, in storage order: the first written one after them.
  const page = (await (await fetch(`${url}/v1/agents/?limit=1&offset=5`, { headers })).json()) as {
    results: Array<{ id: string; description: string }>
    total: number
  }
  expect(page.total, 'five seeded, every accepted one kept, the refused one not').toBe(5 + refused.accepted)
  expect(page.results[0]!.description).toBe(description)
  const deleted = await fetch(`${url}/v1/agents/${page.results[0]!.id}`, { method: 'DELETE', headers })
  expect(deleted.status, 'a DELETE only frees room: never refused for want of it').toBe(204)
  // The recorded contract holds what the posts sent too: starting it over gives that room back.
  expect((await fetch(`${url}/__mock/contract`, { method: 'DELETE' })).status).toBe(204)
  expect((await post()).status, 'room again once the contract is started over').toBe(201)
}, 120_000)

it('lets the least recently used sessions go as their journals and contracts fill the budget', async () => {
  const { url, fixtures } = await start(['--sessions', '1000'])
  const padding = 'x'.repeat(63 * 1024)
  const auth = { authorization: `Bearer ${fixtures.tokens.team_reader}` }
  // 70 distinct 63 KiB requests of each kind fill a session's journal (bodies) and its recorded contract
  // (queries): about 8 MB, so 6 sessions hold three times the budget. Uncounted, they would all be kept (and 16 of
  // them held the whole heap).
  const sessions = 6
  for (let s = 0; s < sessions; s++) {
    for (let k = 0; k < 70; k++) {
      const api = `${url}/__session/s${s}/v1/personas/`
      const posted = await fetch(api, { method: 'POST', headers: { ...json, ...auth }, body: `${k}${padding}` })
      expect(posted.status, 'a 405, journaled with its body').toBe(405)
      await posted.arrayBuffer()
      const listed = await fetch(`${api}?limit=1&search=${k}${padding}`, { headers: auth })
      expect(listed.status, 'a list, recorded with its query').toBe(200)
      await listed.arrayBuffer()
    }
  }
  await expectAlive(url)
  const kept = ((await (await fetch(`${url}/__mock/sessions`)).json()) as { sessions: Array<{ key: string }> }).sessions
  expect(kept.length, 'some sessions were let go, though --sessions is 1000').toBeLessThan(sessions)
  expect(kept.length).toBeGreaterThan(0)
  expect(kept.at(-1)!.key, 'never the newest').toBe(`s${sessions - 1}`)
  expect(kept.map((session) => session.key)).not.toContain('s0')
  const journal = await fetch(`${url}/__session/s${sessions - 1}/__mock/requests`)
  const { requests } = (await journal.json()) as { requests: unknown[] }
  expect(requests.length, 'the newest keeps its journal').toBeGreaterThan(50)
}, 300_000)

it('keeps room for requests at the default budget: journals filling it never run the heap out', async () => {
  // No --max-memory: the budget is the default share of the 128 MB heap. At 70% the journals alone filled it and
  // 16 requests of 65 KB at once then ran the heap out (the budget's quarter of kept JSON and the process's own
  // ~30 MB beside it).
  server = await startCli(['--port', '0', '--quiet', '--sessions', '1000'], {
    NODE_OPTIONS: '--max-old-space-size=128',
  })
  const { url } = server
  const dimension = (await (await fetch(`${url}/__mock/fixtures`)).json()) as { dimensions: Array<{ id: string }> }
  const body = JSON.stringify({ values: [{ value: 'x'.repeat(200), metadata: { pad: 'y'.repeat(65_000) } }] })
  const headers = { ...json, 'x-pad': 'p'.repeat(2000) }
  // Unauthenticated: each a 401, journaled with its 65 KB body; 70 fill a session's 4 MiB journal.
  const add = (session: string) =>
    fetch(`${url}/__session/${session}/v1/demographics/${dimension.dimensions[0]!.id}/values/bulk`, {
      method: 'POST',
      headers,
      body,
    }).then(async (answer) => [answer.status, await answer.arrayBuffer()][0])
  for (let s = 0; s < 28; s++)
    for (let sent = 0; sent < 70; sent += 14) {
      const statuses = await Promise.all(Array.from({ length: 14 }, () => add(`j${s}`)))
      expect(statuses.every((status) => status === 401)).toBe(true)
    }
  await expectAlive(url)
}, 300_000)

it("counts the sessions' overrides: old sessions go as new ones set large overrides, and it answers on", async () => {
  const { url } = await start(['--sessions', '1000'])
  // Three overrides of ~900 KB a session: ~5 MB each with their prepared answers, so 12 sessions hold nearly four
  // times the budget. Uncounted, they would all be kept (and 60 of them held 300 MB).
  const detail = 'x'.repeat(900 * 1024)
  const sessions = 12
  for (let s = 0; s < sessions; s++) {
    for (const operation of ['list_personas', 'bulk_add_values', 'list_policy_rules']) {
      const put = await fetch(`${url}/__session/s${s}/__mock/overrides/${operation}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ status: 503, body: { detail } }),
      })
      expect(put.status, `session ${s}, ${operation}`).toBe(200)
      await put.arrayBuffer()
    }
  }
  await expectAlive(url)
  const kept = ((await (await fetch(`${url}/__mock/sessions`)).json()) as { sessions: Array<{ key: string }> }).sessions
  expect(kept.length, 'sessions were let go, though --sessions is 1000').toBeLessThan(sessions / 2)
  expect(kept.at(-1)!.key, 'never the newest').toBe(`s${sessions - 1}`)
  const newest = await fetch(`${url}/__session/s${sessions - 1}/__mock/overrides`)
  expect(Object.keys(((await newest.json()) as { overrides: object }).overrides)).toHaveLength(3)
}, 300_000)

it('counts an override by its values too: a megabyte of empty objects is refused before it fills the heap', async () => {
  const { url } = await start(['--sessions', '1000'])
  // ~1 MB of JSON, ~25 MB of heap once parsed: counted by its characters alone, 5 of them ran the heap out.
  const body = `{"status":200,"body":{"results":[],"total":0,"x":[${'{},'.repeat(299_999)}{}]}}`
  for (let s = 0; s < 12; s++) {
    const put = await fetch(`${url}/__session/s${s}/__mock/overrides/list_personas`, {
      method: 'PUT',
      headers: json,
      body,
    })
    expect([200, 503], `session ${s}`).toContain(put.status)
    await put.arrayBuffer()
  }
  await expectAlive(url)
}, 300_000)
