/**
 * Copy-on-write forks of a seeded world (model/world.ts): a fork shares its base's records
 * until it writes, and no write of a fork reaches its base or a sibling, whichever way it is
 * made (the mock's bulk store, @msw/data's own create, update and delete).
 */
import { describe, expect, it } from 'vitest'
import { createWorld, type World } from 'agent-console-mock'

const snapshot = (world: World) => JSON.stringify(world.contents())
const firstTeam = (world: World) => world.teams.all()[0]!.id

async function family() {
  const base = await createWorld({ seed: 5, personasPerTeam: 12 })
  const before = snapshot(base)
  return { base, before, fork: await base.fork(), sibling: await base.fork() }
}

describe('a fork of a seeded world', () => {
  it('holds the same records and answers the same indexes as its base', async () => {
    const { base, fork } = await family()
    expect(snapshot(fork)).toBe(snapshot(base))
    expect(fork.personasByTeam().get(firstTeam(base))?.ordered).toEqual(
      base.personasByTeam().get(firstTeam(base))?.ordered,
    )
    expect(fork.seed).toBe(base.seed)
    expect(fork.ownCollections, 'an idle fork holds no collection of its own').toEqual([])
  })

  it('keeps values stored in bulk to itself, and indexes them', async () => {
    const { base, before, fork, sibling } = await family()
    const dimension = base.dimensions.all()[0]!
    const [value] = await fork.values.createAll([
      {
        id: '00000000-0000-4000-8000-000000000001',
        dimension_id: dimension.id,
        value: 'forked',
        created_at: 1,
        display_name: 'Forked',
        value_metadata: {},
        sort_order: 999,
      },
    ])
    expect(fork.valuesByDimension().get(dimension.id)?.names.has('forked')).toBe(true)
    expect(fork.valuesByDimension().get(dimension.id)?.list.at(-1)).toBe(value)
    expect(base.valuesByDimension().get(dimension.id)?.names.has('forked')).toBe(false)
    expect(sibling.valuesByDimension().get(dimension.id)?.names.has('forked')).toBe(false)
    expect(snapshot(base)).toBe(before)
    expect(snapshot(sibling)).toBe(before)
    expect(fork.ownCollections).toEqual(['values'])
  })

  it("keeps @msw/data's updates and deletes to itself", async () => {
    const { base, before, fork, sibling } = await family()
    const team = firstTeam(base)
    const [first, second] = base.personasByTeam().get(team)!.ordered
    await fork.personas.update((q) => q.where({ id: first!.id }), {
      data: (persona) => void (persona.name = 'Renamed in a fork'),
    })
    fork.personas.delete((q) => q.where({ id: second!.id }))
    const ordered = fork.personasByTeam().get(team)!.ordered
    expect(ordered.find((persona) => persona.id === first!.id)?.name).toBe('Renamed in a fork')
    expect(ordered.some((persona) => persona.id === second!.id)).toBe(false)
    expect(snapshot(base)).toBe(before)
    expect(snapshot(sibling)).toBe(before)
    expect(base.personasByTeam().get(team)!.ordered).toContain(second)
  })

  it('sees records created through @msw/data in its indexes', async () => {
    const { base, before, fork } = await family()
    const team = firstTeam(base)
    const template = base.personasByTeam().get(team)!.ordered[0]!
    await fork.personas.create({ ...template, id: '00000000-0000-4000-8000-00000000000f', created_at: 4e9 })
    expect(fork.personasByTeam().get(team)!.ordered[0]!.id).toBe('00000000-0000-4000-8000-00000000000f')
    expect(snapshot(base)).toBe(before)
  })

  it('forks a fork: the grandchild shares what the child had when it forked', async () => {
    const { base, fork } = await family()
    const policy = base.policies.all()[0]!
    await fork.policies.update((q) => q.where({ id: policy.id }), { data: (p) => void (p.name = 'child') })
    const grandchild = await fork.fork()
    expect(grandchild.policyById().get(policy.id)?.name).toBe('child')
    await grandchild.policies.update((q) => q.where({ id: policy.id }), { data: (p) => void (p.name = 'grandchild') })
    expect(fork.policyById().get(policy.id)?.name).toBe('child')
    expect(base.policyById().get(policy.id)?.name).toBe(policy.name)
  })

  it('reports what is stored in it to listeners, and moves its version', async () => {
    const { base, fork } = await family()
    const heard: string[] = []
    fork.watch({ stored: (name, records) => heard.push(`${name}:${records.length}`) })
    const version = fork.version
    const rule = base.rules.all()[0]!
    await fork.rules.createAll([{ ...rule, rule_id: 'forked-rule' }])
    expect(heard).toEqual(['rules:1'])
    expect(fork.version).not.toBe(version)
    expect(
      fork
        .rulesByPolicy()
        .get(rule.policy_id)
        ?.some((r) => r.rule_id === 'forked-rule'),
    ).toBe(true)
    expect(
      base
        .rulesByPolicy()
        .get(rule.policy_id)
        ?.some((r) => r.rule_id === 'forked-rule'),
    ).toBe(false)
  })
})

describe('a fork storing personas', () => {
  it('places them in its index as a rebuild would, leaving its base index as it was', async () => {
    const { base, fork } = await family()
    const team = firstTeam(base)
    const baseOrder = base
      .personasByTeam()
      .get(team)!
      .ordered.map((p) => p.id)
    const template = base.personasByTeam().get(team)!.ordered[3]!
    const made = [0, 1, 2].map((i) => ({
      ...template,
      id: `00000000-0000-4000-8000-00000000010${i}`,
      created_at: template.created_at - i,
      name: `Stored ${i}`,
    }))
    await fork.personas.createAll(made)
    const forkOrder = fork
      .personasByTeam()
      .get(team)!
      .ordered.map((p) => p.id)
    const rebuilt = [...fork.personas.all()]
      .filter((p) => p.team_id === team)
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((p) => p.id)
    expect(forkOrder).toEqual(rebuilt)
    expect(forkOrder).toHaveLength(baseOrder.length + 3)
    expect(
      base
        .personasByTeam()
        .get(team)!
        .ordered.map((p) => p.id),
    ).toEqual(baseOrder)
    expect(fork.personasByTeam().get(team)!.lowercase().names).toContain('stored 1')
  })
})
