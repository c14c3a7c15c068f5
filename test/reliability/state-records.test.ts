/**
 * Records the control API stores and deletes (`/__mock/records`) are on disk before their
 * answer with `--state-file`: a kill -9 right after the answer loses neither, and a delete that
 * cascades (a team's personas and policies) is kept whole.
 */
import { expect, it } from 'vitest'
import { stateFileServers, type CliServer } from './support/cli.js'

const { stateFile, start } = stateFileServers()

const control = (server: CliServer, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/__mock${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

const world = async (server: CliServer) =>
  ((await (await control(server, 'GET', '/state')).json()) as { world: Record<string, Array<{ id: string }>> }).world

it('keeps a created record and a delete across kill -9, cascades included', async () => {
  const file = stateFile()
  let server = await start(file)
  const created = await control(server, 'POST', '/records/teams', {})
  expect(created.status).toBe(201)
  const team = ((await created.json()) as { id: string }).id
  const persona = await control(server, 'POST', '/records/personas', { team_id: team })
  expect(persona.status).toBe(201)
  const kept = ((await persona.json()) as { id: string }).id
  const seeded = (await world(server)).personas![0]!.id
  expect((await control(server, 'DELETE', `/records/personas/${seeded}`)).status).toBe(204)
  await server.stop('SIGKILL')

  server = await start(file)
  let after = await world(server)
  expect(after.teams!.map((t) => t.id)).toContain(team)
  expect(after.personas!.map((p) => p.id)).toContain(kept)
  expect(
    after.personas!.map((p) => p.id),
    'the deleted persona stays deleted',
  ).not.toContain(seeded)

  expect((await control(server, 'DELETE', `/records/teams/${team}`)).status).toBe(204)
  await server.stop('SIGKILL')
  server = await start(file)
  after = await world(server)
  expect(after.teams!.map((t) => t.id)).not.toContain(team)
  expect(
    after.personas!.map((p) => p.id),
    "the team's persona went with it",
  ).not.toContain(kept)
})
