/**
 * Worlds are seeded with `createAll`, which stores records without @msw/data's per-record
 * `create`. The records must still be @msw/data records in every way the mock relies on.
 */
import { Faker, en } from '@faker-js/faker'
import { expect, it } from 'vitest'
import { createWorld, World } from 'agent-console-mock'
import { seededFaker, seededUuid } from '../../factories/random.js'

it('stores records that @msw/data finds, updates and deletes, and keeps the indexes in step', async () => {
  const world = await createWorld({ seed: 4, personasPerTeam: 12 })
  const [team] = world.teams.all()
  const persona = world.personasByTeam().get(team!.id)!.ordered[5]!
  const versionBefore = world.personas.version

  const updated = await world.personas.update((q) => q.where({ id: persona.id }), {
    data: (draft) => void (draft.name = 'Renamed by a test'),
  })
  expect(updated?.name).toBe('Renamed by a test')
  expect(world.personas.findFirst((q) => q.where({ id: persona.id }))?.name).toBe('Renamed by a test')
  expect(
    world
      .personasByTeam()
      .get(team!.id)!
      .ordered.map((p) => p.name),
  ).toContain('Renamed by a test')

  world.personas.delete((q) => q.where({ id: persona.id }))
  expect(world.personas.findFirst((q) => q.where({ id: persona.id }))).toBeUndefined()
  expect(world.personasByTeam().get(team!.id)!.ordered).toHaveLength(11)
  expect(world.personas.version).toBeGreaterThan(versionBefore)
})

it('validates every record as create does, and refuses an invalid one', async () => {
  const source = await createWorld({ seed: 4, personasPerTeam: 3 })
  const [valid] = source.personas.all()
  const world = new World(4)
  await expect(world.personas.createAll([valid!, { ...valid!, id: 'not-a-uuid' }])).rejects.toMatchObject({
    code: 'INVALID_INITIAL_VALUES',
  })
  // Defaults are applied as create applies them, to the first record and to the rest.
  const { description: _description, ...withoutDescription } = valid!
  const defaulted = new World(4)
  await defaulted.personas.createAll([
    withoutDescription,
    { ...withoutDescription, id: '00000000-0000-4000-8000-000000000001' },
  ] as never)
  expect(defaulted.personas.all().map((p) => p.description)).toEqual([null, null])
})

it('goes through create for every record when hooks listen for creates', async () => {
  const source = await createWorld({ seed: 4 })
  const world = new World(4)
  const seen: string[] = []
  world.teams.hooks.on('create', (event) => void seen.push((event.data.record as { id: string }).id))
  await world.teams.createAll(source.teams.all())
  expect(seen).toEqual(source.teams.all().map((team) => team.id))
})

it('refuses relations defined after a bulk store, rather than share them between records', async () => {
  const world = await createWorld({ seed: 4, personasPerTeam: 2 })
  expect(() => world.personas.defineRelations(({ one }) => ({ owner: one(world.teams) }) as never)).toThrow(
    /define relations before storing records/,
  )
})

it('draws the same uuids as faker.string.uuid from the same seed', () => {
  const ours = seededFaker(9, 1)
  const fakers = new Faker({ locale: [en] })
  fakers.seed([9, 1])
  for (let i = 0; i < 500; i++) expect(seededUuid(ours)).toBe(fakers.string.uuid())
})
