import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { zodOf } from '../../fastapi/served/to-zod.js'
import { ServedDocument } from '../../fastapi/served/document.js'

/**
 * What an attacker found in served documents: bounds the mock could not generate, a collection past the call
 * stack's argument count, an id stored twice, per-request zod schemas, and writes to the mock's own personas.
 */

let mock: MockServer | undefined
let server: RunningServer | undefined
const folders: string[] = []
afterEach(async () => {
  mock?.close()
  mock = undefined
  await server?.close()
  server = undefined
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A document of one collection, `/v1/items/`, whose record is `properties` (an integer `id` besides). */
function itemsDocument(properties: Record<string, unknown> = {}, id: Record<string, unknown> = { type: 'integer' }) {
  const item = { $ref: '#/components/schemas/Item' }
  const answer = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } })
  const idParam = [{ name: 'item_id', in: 'path', required: true, schema: id }]
  const body = { required: true, content: { 'application/json': { schema: item } } }
  return {
    openapi: '3.1.0',
    info: { title: 'items', version: '1' },
    paths: {
      '/v1/items/': {
        get: { responses: { 200: answer({ type: 'array', items: item }) } },
        post: { requestBody: body, responses: { 201: answer(item) } },
      },
      '/v1/items/{item_id}': {
        get: { parameters: idParam, responses: { 200: answer(item) } },
        patch: { parameters: idParam, requestBody: body, responses: { 200: answer(item) } },
      },
    },
    components: {
      schemas: {
        // No field required: a create may send its id or leave it to the mock.
        Item: { type: 'object', properties: { id, name: { type: 'string' }, ...properties } },
      },
    },
  }
}

/** The URL of a path on a mock of either host (a MockServer's `url()`, a running server's base `url`). */
const urlOf = (running: MockServer | RunningServer, path: string) =>
  typeof running.url === 'string' ? `${running.url}${path}` : running.url(path)

/** The message a start was refused with, or 'started' (the mock closed, so that the next test may start one). */
const refusal = (start: Promise<MockServer | RunningServer>): Promise<string> =>
  start.then(
    async (running) => {
      await running.close()
      return 'started'
    },
    (error: Error) => error.message,
  )

/** Errors only: no banner in the test's output. */
const logger = { error: console.error }

const post = (running: MockServer | RunningServer, path: string, body: unknown, method = 'POST') =>
  fetch(urlOf(running, path), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

it('refuses at start a document whose answers ask more items or characters than the mock generates', async () => {
  const manyItems = itemsDocument({ tags: { type: 'array', minItems: 100_000_000, items: { type: 'string' } } })
  expect(await refusal(createMockServer({ seed: 1, openapi: manyItems }))).toContain(
    'GET /v1/items/: the schema at #/components/schemas/Item/properties/tags asks minItems 100000000, more than the mock generates (at most 1000 items of an array)',
  )
  const longText = itemsDocument({ text: { type: 'string', minLength: 100_000_000 } })
  expect(await refusal(startServer({ port: 0, openapi: longText, logger }))).toContain(
    'the schema at #/components/schemas/Item/properties/text asks minLength 100000000, more than the mock generates (at most 65536 characters of a string)',
  )
  const nested = { type: 'array', minItems: 1000, items: { type: 'string', minLength: 2000 } }
  expect(await refusal(createMockServer({ seed: 1, openapi: itemsDocument({ pages: nested }) }))).toContain(
    'asks minLength 2000 inside arrays that repeat it 1000 times, more than the mock generates (at most 1000000 items and characters in one value)',
  )
})

it('serves records at the largest bounds it generates, each within them', async () => {
  const text = { type: 'string', minLength: 65_536, maxLength: 65_536 }
  const tags = { type: 'array', minItems: 1000, items: { type: 'string', minLength: 3 } }
  mock = await createMockServer({ seed: 1, openapi: itemsDocument({ text, tags }) })
  const items = (await (await fetch(mock.url('/v1/items/'))).json()) as Array<{ text: string; tags: string[] }>
  expect(items).toHaveLength(5)
  for (const item of items) {
    expect(item.text).toHaveLength(65_536)
    expect(item.tags.length).toBeGreaterThanOrEqual(1000)
  }
})

it('creates records in a collection of more than 125,000', async () => {
  // Loaded from a state file, which is not held to the document: the quickest way to a collection that large.
  const document = itemsDocument()
  server = await startServer({ port: 0, openapi: document, logger })
  const state = (await (await fetch(urlOf(server, '/__mock/state'))).json()) as object
  await server.close()
  const folder = mkdtempSync(join(tmpdir(), 'served-limits-'))
  folders.push(folder)
  const stateFile = join(folder, 'state.json')
  const records = Array.from({ length: 130_000 }, (_, index) => ({ id: index + 1, name: `n${index}` }))
  writeFileSync(stateFile, JSON.stringify({ ...state, documented: { '/v1/items': records } }))
  server = await startServer({ port: 0, openapi: document, stateFile, logger })
  const created = await post(server, '/v1/items/', { id: 0, name: 'new' })
  expect([created.status, await created.json()]).toEqual([201, { id: 130_001, name: 'new' }])
})

it('refuses with 409 a create or change that would store an id the collection holds, and stores nothing', async () => {
  const uuid = { type: 'string', format: 'uuid' }
  mock = await createMockServer({ seed: 1, openapi: itemsDocument({}, uuid) })
  const [first, second] = ['11111111-1111-1111-1111-111111111111', '22222222-2222-2222-2222-222222222222']
  expect((await post(mock, '/v1/items/', { id: first, name: 'a' })).status).toBe(201)
  const again = await post(mock, '/v1/items/', { id: first, name: 'b' })
  expect([again.status, await again.json()]).toEqual([409, { detail: `id ${first} already exists` }])
  expect((await post(mock, '/v1/items/', { id: second, name: 'c' })).status).toBe(201)
  const renamed = await post(mock, `/v1/items/${second}`, { id: first, name: 'c' }, 'PATCH')
  expect([renamed.status, await renamed.json()]).toEqual([409, { detail: `id ${first} already exists` }])
  const items = (await (await fetch(mock.url('/v1/items/'))).json()) as Array<{ id: string; name: string }>
  expect(items.filter((item) => [first, second].includes(item.id)).map((item) => item.name)).toEqual(['a', 'c'])
  // So the mock loads its own export.
  const state = await (await fetch(mock.url('/__mock/state'))).text()
  const loaded = await fetch(mock.url('/__mock/state'), {
    method: 'PUT',
    body: state,
    headers: { 'content-type': 'application/json' },
  })
  expect(loaded.status).toBe(200)
})

it("draws a new id for a create after a delete, where the seeded one is a stored record's", async () => {
  // Created ids are seeded from the collection's size: a delete brings it back to that of an earlier create.
  const document = itemsDocument({}, { type: 'string', format: 'uuid' })
  const remove = structuredClone(document.paths['/v1/items/{item_id}'].get)
  Object.assign(document.paths['/v1/items/{item_id}'], { delete: remove })
  // A create that takes no id: the mock generates it.
  const create = { type: 'object', properties: { name: { type: 'string' } } }
  document.paths['/v1/items/'].post.requestBody.content['application/json'].schema = create as never
  mock = await createMockServer({ seed: 1, openapi: document })
  const created: string[] = []
  for (let n = 0; n < 2; n++) {
    const item = (await (await post(mock, '/v1/items/', { name: 'same' })).json()) as { id: string }
    created.push(item.id)
  }
  expect((await fetch(mock.url(`/v1/items/${created[0]}`), { method: 'DELETE' })).status).toBe(200)
  const again = await post(mock, '/v1/items/', { name: 'same' })
  expect(again.status).toBe(201)
  expect(((await again.json()) as { id: string }).id).not.toBe(created[1])
})

it("serves no operation of a document that would write the mock's own personas: 405, as Starlette answers", async () => {
  const persona = { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] }
  const answer = { 200: { description: 'ok', content: { 'application/json': { schema: persona } } } }
  const idParam = [{ name: 'persona_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }]
  const paths = {
    '/v1/personas/{persona_id}': {
      get: { parameters: idParam, responses: answer },
      delete: { parameters: idParam, responses: answer },
    },
  }
  mock = await createMockServer({ seed: 1, openapi: { openapi: '3.1.0', info: { title: 'p', version: '1' }, paths } })
  const id = mock.world.personas.all()[0]!.id
  const auth = { authorization: `Bearer ${mock.fixtures.tokens.super_admin}` }
  const deleted = await fetch(mock.url(`/v1/personas/${id}`), { method: 'DELETE', headers: auth })
  expect([deleted.status, deleted.headers.get('allow'), await deleted.json()]).toEqual([
    405,
    'GET',
    { detail: 'Method Not Allowed' },
  ])
  // The read by id is served, from the mock's personas (docs/openapi.md), which the DELETE left as they were.
  const read = await fetch(mock.url(`/v1/personas/${id}`), { headers: auth })
  expect([read.status, ((await read.json()) as { id: string }).id]).toEqual([200, id])
})

it("builds each schema's validator once, not per request", () => {
  const document = new ServedDocument(itemsDocument({ kind: { enum: ['a', 'b'] } }))
  const schema = { $ref: '#/components/schemas/Item' }
  expect(zodOf(document, schema)).toBe(zodOf(document, schema))
})
