/** Snapshots in code (issue #15 part 4): `mock.snapshot()` and `mock.restore()` on an in-process mock. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'

let mock: MockServer

beforeAll(async () => {
  mock = await createMockServer({ seed: 32, personasPerTeam: 6, baseUrl: 'http://snapshots.test' })
})
afterAll(() => mock.close())

const personaTotal = async () => {
  const answer = await fetch(mock.url('/v1/personas/?limit=1'), {
    headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` },
  })
  return ((await answer.json()) as { total: number }).total
}

it('comes back to what a snapshot kept, whatever was written since, through the API too', async () => {
  await mock.create.persona({ name: 'Kept by the snapshot' })
  await mock.snapshot('arranged')
  await mock.create.persona({ name: 'Written after' })
  expect(await personaTotal()).toBe(8)
  await mock.restore('arranged')
  expect(await personaTotal()).toBe(7)
  const names = mock.world.personas.all().map((persona) => persona.name)
  expect(names).toContain('Kept by the snapshot')
  expect(names).not.toContain('Written after')
  await mock.create.persona({ name: 'Written after the restore' })
  await mock.restore('arranged')
  expect(await personaTotal(), 'the snapshot itself never changed').toBe(7)
})

it('takes a default snapshot, and refuses one it does not have', async () => {
  await mock.snapshot()
  await mock.create.persona()
  await mock.restore()
  await expect(mock.restore('missing')).rejects.toThrow(
    /^No snapshot named "missing"; there are: .*: take one with mock\.snapshot\("missing"\) first$/,
  )
})
