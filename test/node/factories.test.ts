import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
const NOW = '2026-03-01T09:00:00Z'
const NOW_SECONDS = Date.parse(NOW) / 1000

beforeAll(async () => {
  mock = await createMockServer({ seed: 21, personasPerTeam: 5 })
  api = client(mock)
})
afterEach(() => mock.reset())
afterAll(() => mock.close())

const listPersonas = (query = '') => api.get(`/v1/personas/?limit=100${query}`, mock.fixtures.tokens.team_reader)

it('builds a valid persona with the description defaults, the first team and the clock time, not stored', () => {
  mock.clock.freeze(NOW)
  const persona = mock.build.persona()
  expect(persona).toMatchObject({
    team_id: mock.fixtures.teams[0]!.id,
    description: null,
    knowledge_level: 'intermediate',
    skill_level: 'competent',
    intent: 'benign',
    language: 'en',
    access_permissions: null,
    is_preset: false,
    created_at: NOW_SECONDS,
    updated_at: NOW_SECONDS,
  })
  expect(persona.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(persona.name).not.toBe('')
  expect(mock.world.personas.all().some((p) => p.id === persona.id)).toBe(false)
})

it('gives the same ids in the same order after every reset (seed + a counter)', async () => {
  const first = [mock.build.team().id, (await mock.create.persona()).id]
  await mock.reset()
  const again = [mock.build.team().id, (await mock.create.persona()).id]
  expect(again).toEqual(first)
  expect(new Set(first).size).toBe(2)
})

it('applies typed overrides, nested objects in part', () => {
  const rule = mock.build.rule({ status: 'approved', consequence: { severity: 'critical' } })
  expect(rule.policy_id).toBe(mock.fixtures.policies[0]!.id)
  expect(rule.consequence).toMatchObject({ action: 'block', severity: 'critical' })
  expect(rule.reviewed_by).toMatch(/^[0-9a-f-]{36}$/)
  expect(mock.build.rule().reviewed_by).toBeNull()
  const value = mock.build.value({ value: 'x' })
  expect(value).toMatchObject({ dimension_id: mock.fixtures.dimensions[0]!.id, display_name: 'x', value_metadata: {} })
})

it('numbers a value after the largest sort_order of its dimension, and a rule after its policy', async () => {
  const dimension = mock.fixtures.dimensions[1]!.id
  const largest = Math.max(
    ...mock.world.values
      .all()
      .filter((v) => v.dimension_id === dimension)
      .map((v) => Number(v.sort_order)),
  )
  const first = await mock.create.value({ dimension_id: dimension })
  const second = await mock.create.value({ dimension_id: dimension })
  expect([first.sort_order, second.sort_order]).toEqual([largest + 1, largest + 2])
  expect(first.value).not.toBe(second.value)
  const policy = mock.fixtures.policies[1]!.id // one rule: BRAND-001
  expect((await mock.create.rule({ policy_id: policy })).rule_id).toBe('RULE-002')
})

it('stores a persona the API lists at once, stamped by the frozen clock', async () => {
  mock.clock.freeze(NOW)
  const persona = await mock.create.persona({ name: 'Ada Lovelace', intent: 'adversarial', role: 'Analyst' })
  const { body } = await listPersonas('&intents=adversarial')
  // created_at descending: the newest persona comes first
  expect(body.results[0]).toMatchObject({ id: persona.id, name: 'Ada Lovelace', created_at: NOW_SECONDS })
  expect(body.results.filter((p: { id: string }) => p.id === persona.id)).toHaveLength(1)
})

it('stores a team, then personas and policies of it', async () => {
  const team = await mock.create.team({ name: 'Empty team' })
  const persona = await mock.create.persona({ team_id: team.id })
  const policy = await mock.create.policy({ team_id: team.id })
  const rule = await mock.create.rule({ policy_id: policy.id })
  const token = await mock.mintToken({ sub: 'u', team_id: team.id, permissions: ['persona:read', 'policy:read'] })
  expect((await api.get('/v1/personas/', token)).body).toMatchObject({ total: 1, results: [{ id: persona.id }] })
  expect((await api.get(`/v1/policies/${policy.id}/rules`, token)).body).toMatchObject({
    total: 1,
    results: [{ id: rule.id, rule_id: 'RULE-001' }],
  })
})

it('refuses invalid overrides, saying which field and why, and stores nothing', async () => {
  const before = mock.world.personas.count()
  await expect(mock.create.persona({ intent: 'evil' as never })).rejects.toThrow(/^Invalid personas: intent: /)
  await expect(mock.create.persona({ team_id: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
    'Invalid personas: team_id: no team has the id 00000000-0000-4000-8000-000000000000',
  )
  const missingTeamAndBadIntent = { team_id: '00000000-0000-4000-8000-000000000000', intent: 'evil' as never }
  await expect(mock.create.persona(missingTeamAndBadIntent)).rejects.toThrow(
    /^Invalid personas: intent: Invalid option: .*; team_id: no team has the id 00000000-0000-4000-8000-000000000000$/,
  )
  await expect(mock.create.persona({ nmae: 'typo' } as never)).rejects.toThrow('nmae: not a field of this record')
  const existing = mock.world.personas.all()[0]!
  await expect(mock.create.persona({ id: existing.id })).rejects.toThrow('id: a record of personas has this id already')
  const value = mock.world.values.all()[0]!
  await expect(mock.create.value({ dimension_id: value.dimension_id, value: value.value })).rejects.toThrow(
    'value: the dimension has this value already',
  )
  await expect(mock.create.value({ value_metadata: { weight: Number.NaN } })).rejects.toThrow(
    'value_metadata: not a JSON object of finite numbers',
  )
  expect(() => mock.build.persona({ created_at: -1 })).toThrow(/created_at: /)
  expect(mock.world.personas.count()).toBe(before)
})

it('refuses a default reference when there is nothing to refer to', async () => {
  for (const { id } of [...mock.world.policies.all()]) await mock.instance.records.delete('policies', id)
  expect(() => mock.build.rule()).toThrow('policy_id: the world has no policy to default to')
})

it('deletes a record and what belongs to it', async () => {
  const policy = mock.fixtures.policies[0]!
  expect(await mock.instance.records.delete('policies', policy.id)).toBe(true)
  expect(mock.world.rules.all().some((rule) => rule.policy_id === policy.id)).toBe(false)
  const answer = await api.get(`/v1/policies/${policy.id}/rules`, mock.fixtures.tokens.team_reader)
  expect(answer).toMatchObject({ status: 404, body: { detail: 'Policy not found' } })
  expect(await mock.instance.records.delete('policies', policy.id)).toBe(false)
})

it('stamps records with the clock’s time', async () => {
  mock.clock.freeze(NOW)
  expect((await mock.create.team()).created_at).toBe(NOW_SECONDS)
  mock.clock.advance(5)
  expect(mock.build.policy()).toMatchObject({ created_at: NOW_SECONDS + 5, updated_at: NOW_SECONDS + 5 })
})
