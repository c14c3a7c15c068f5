/**
 * Answers are written once and their JSON kept (handlers/kept-json.ts), a filter's matches
 * are remembered for its next page (model/persona-index.ts), and msw runs the mock's
 * handlers on a lean path of their own (handlers/match.ts). None of it may change what a
 * client or an msw listener sees.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'

let mock: MockServer

beforeAll(async () => {
  mock = await createMockServer({ seed: 12, personasPerTeam: 40 })
})
afterAll(() => mock.close())

const read = async (path: string, token = mock.fixtures.tokens.team_reader) => {
  const response = await fetch(mock.url(path), { headers: { authorization: `Bearer ${token}` } })
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    bytes: Buffer.from(await response.arrayBuffer()),
  }
}

it('answers a page with the same bytes whether its JSON was just written or kept', async () => {
  const first = await read('/v1/personas/?limit=7&offset=3')
  const again = await read('/v1/personas/?limit=7&offset=3')
  expect(first.status).toBe(200)
  expect(again.bytes.equals(first.bytes)).toBe(true)
  expect(first.headers['content-length']).toBe(String(first.bytes.byteLength))
  // Overlapping pages share kept records: the overlap is the same text in both.
  const overlap = JSON.parse((await read('/v1/personas/?limit=3&offset=5')).bytes.toString())
  expect(overlap.results).toEqual(JSON.parse(first.bytes.toString()).results.slice(2, 5))
})

it('answers with the records as they are now after the world changes, not with JSON kept before', async () => {
  const before = JSON.parse((await read('/v1/personas/?limit=3')).bytes.toString())
  const target = before.results[1]
  await mock.world.personas.update((q) => q.where({ id: target.id }), {
    data: (draft) => void (draft.name = 'Renamed after serving'),
  })
  const renamed = JSON.parse((await read('/v1/personas/?limit=3')).bytes.toString())
  expect(renamed.results[1]).toEqual({ ...target, name: 'Renamed after serving' })

  mock.world.personas.delete((q) => q.where({ id: before.results[0].id }))
  const after = JSON.parse((await read('/v1/personas/?limit=3')).bytes.toString())
  expect(after.total).toBe(before.total - 1)
  expect(after.results[0]).toEqual(renamed.results[1])
})

it('answers filtered pages from the personas as they are now, however many filters came in between', async () => {
  const filtered = '/v1/personas/?intents=curious&intents=benign&limit=100'
  const before = JSON.parse((await read(filtered)).bytes.toString())
  expect(before.total).toBeGreaterThan(1)
  // More distinct filters than are remembered, then the first again: the same answer.
  for (let offset = 0; offset < 20; offset++)
    expect((await read(`/v1/personas/?search=e&offset=${offset}`)).status).toBe(200)
  expect(JSON.parse((await read('/v1/personas/?intents=benign&intents=curious&limit=100')).bytes.toString())).toEqual(
    before,
  )

  const moved = before.results[0]
  await mock.world.personas.update((q) => q.where({ id: moved.id }), {
    data: (draft) => void (draft.intent = 'adversarial'),
  })
  const after = JSON.parse((await read(filtered)).bytes.toString())
  expect(after.total).toBe(before.total - 1)
  expect(after.results.map((persona: { id: string }) => persona.id)).not.toContain(moved.id)
  const adversarial = JSON.parse((await read('/v1/personas/?intents=adversarial&limit=100')).bytes.toString())
  expect(adversarial.results.map((persona: { id: string }) => persona.id)).toContain(moved.id)
})

it('keeps rules pages true to the policy', async () => {
  const policy = mock.fixtures.policies.find((candidate) => candidate.team_id === mock.fixtures.teams[0]!.id)!
  const page = await read(`/v1/policies/${policy.id}/rules?limit=5&offset=1`)
  const whole = JSON.parse((await read(`/v1/policies/${policy.id}/rules?limit=1000`)).bytes.toString())
  expect(JSON.parse(page.bytes.toString()).results).toEqual(whole.results.slice(1, 6))
  expect((await read(`/v1/policies/${policy.id}/rules?limit=5&offset=1`)).bytes.equals(page.bytes)).toBe(true)
})

it('hands msw listeners the answer with its body', async () => {
  const mocked: Array<{ body: string; method: string; url: string }> = []
  const listener = async ({ request, response }: { request: Request; response: Response }) => {
    mocked.push({ body: await response.clone().text(), method: request.method, url: request.url })
  }
  mock.server.events.on('response:mocked', listener)
  try {
    const dimension = mock.fixtures.dimensions[0]!.id
    const sent = JSON.stringify({ values: [{ value: 'listened-to' }] })
    const response = await fetch(mock.url(`/v1/demographics/${dimension}/values/bulk`), {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
      body: sent,
    })
    const answered = await response.text()
    await expect.poll(() => mocked.length).toBe(1)
    expect(response.status).toBe(201)
    expect(mocked[0]).toEqual({
      body: answered,
      method: 'POST',
      url: mock.url(`/v1/demographics/${dimension}/values/bulk`),
    })
  } finally {
    mock.server.events.removeListener('response:mocked', listener)
  }
})

it('answers HEAD as uvicorn does: the headers of the answer, content-length included, and no body', async () => {
  // FastAPI's API routes take no HEAD: the answer is the 405 a POST gets too.
  const post = await fetch(mock.url('/v1/personas/'), { method: 'POST' })
  const postBytes = Buffer.from(await post.arrayBuffer())
  const head = await fetch(mock.url('/v1/personas/'), { method: 'HEAD' })
  expect([post.status, head.status]).toEqual([405, 405])
  expect(postBytes.byteLength).toBeGreaterThan(0)
  expect(head.headers.get('content-length')).toBe(String(postBytes.byteLength))
  expect(head.headers.get('allow')).toBe('GET')
  expect((await head.arrayBuffer()).byteLength).toBe(0)
})
