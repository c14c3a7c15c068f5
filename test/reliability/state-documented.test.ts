/**
 * Writes to a served document's collections (`--openapi`, by convention: POST, PATCH, DELETE) are on disk
 * before their answer with `--state-file`: a kill -9 right after a 2xx loses none of them, the log replays
 * them in order, and a restart after that replay compacts them into the snapshot.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { stateFileServers, type CliServer } from './support/cli.js'
import { DOCUMENTS } from '../openapi/documents.js'
import { json, NEW_AGENT } from '../openapi/exercise.js'

const { stateFile, start } = stateFileServers(['--openapi', DOCUMENTS['3.1']])

async function agents(server: CliServer) {
  const token = (await json(await fetch(`${server.url}/__mock/fixtures`))).tokens.team_reader
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/v1/agents/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { send, read: async (id: string) => (await send('GET', id)).status }
}

it("keeps a served collection's create, change and delete across kill -9", async () => {
  const file = stateFile()
  let server = await start(file)
  let api = await agents(server)
  const created = await api.send('POST', '', NEW_AGENT)
  expect(created.status).toBe(201)
  const kept = (await json(created)).id as string
  const [seeded] = (await json(await api.send('GET', '?limit=1'))).results
  expect((await api.send('DELETE', seeded.id)).status).toBe(204)
  const changed = await api.send('PATCH', kept, { name: 'renamed before the kill' })
  expect(changed.status).toBe(200)
  await server.stop('SIGKILL')

  server = await start(file)
  api = await agents(server)
  expect((await json(await api.send('GET', kept))).name, 'the create and the change are kept').toBe(
    'renamed before the kill',
  )
  expect(await api.read(seeded.id), 'the deleted record stays deleted').toBe(404)

  expect((await api.send('DELETE', kept)).status).toBe(204)
  await server.stop('SIGKILL')
  server = await start(file)
  api = await agents(server)
  expect(await api.read(kept)).toBe(404)
  expect(await api.read(seeded.id)).toBe(404)
})

it('logs each write after the first by what it changed, not the whole collection, and replays it in order', async () => {
  const file = stateFile()
  let server = await start(file)
  let api = await agents(server)
  // A reset writes the first snapshot: the collection's first write is then a line of the log.
  expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(200)
  const ids: string[] = []
  for (const name of ['first', 'second', 'third']) {
    const created = await api.send('POST', '', { ...NEW_AGENT, name })
    ids.push((await json(created)).id as string)
  }
  expect((await api.send('PATCH', ids[1]!, { name: 'second, renamed' })).status).toBe(200)
  expect((await api.send('DELETE', ids[0]!)).status).toBe(204)
  const before = (await json(await api.send('GET', '?limit=100'))).results
  // The collection's first write logs it whole (its seeded records with it); each write after it, one record or an
  // index.
  const changes = readFileSync(`${file}.log`, 'utf8').trim().split('\n').slice(1)
  const kinds = changes.map((line) => Object.keys(JSON.parse(line.split(' ').slice(2).join(' ')))[1])
  expect(kinds).toEqual(['records', 'added', 'added', 'replaced', 'removed'])
  for (const line of changes.slice(1)) expect(line.length, line.slice(0, 80)).toBeLessThan(2000)
  await server.stop('SIGKILL')

  server = await start(file)
  api = await agents(server)
  expect((await json(await api.send('GET', '?limit=100'))).results, 'the same records, in the same order').toEqual(
    before,
  )
  await server.stop()
})
