import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

let mock: MockServer
let api: ReturnType<typeof client>
let tokens: MockServer['fixtures']['tokens']
let policyId: string
let path: string

beforeAll(async () => {
  mock = await createMockServer({ seed: 11 })
  api = client(mock)
  tokens = mock.fixtures.tokens
  policyId = mock.fixtures.policies[0]!.id
  path = `/v1/policies/${policyId}/rules`
})
afterAll(() => mock.close())

type Rule = {
  id: string
  policy_id: string
  rule_id: string
  created_at: number
  status: string
  reviewed_by: string | null
  reviewed_at: number | null
  review_notes: string | null
}
const expected = (policy: string) =>
  (mock.world.rules.all() as Rule[])
    .filter((rule) => rule.policy_id === policy)
    .sort((a, b) => a.created_at - b.created_at || (a.rule_id < b.rule_id ? -1 : 1))

it('lists a policy’s rules, 100 by default, created_at ascending then rule_id', async () => {
  const { status, body } = await api.get(path, tokens.team_reader)
  expect(status).toBe(200)
  expect(body.total).toBe(260)
  expect(body.results.map((r: Rule) => r.rule_id)).toEqual(
    expected(policyId)
      .slice(0, 100)
      .map((r) => r.rule_id),
  )
})

it('pages with limit and offset up to 1000, with the same total on every page', async () => {
  const all = expected(policyId).map((r) => r.id)
  const pages = await Promise.all(
    [0, 97, 194].map((offset) => api.get(`${path}?limit=97&offset=${offset}`, tokens.team_reader)),
  )
  expect(pages.map((p) => p.body.total)).toEqual([260, 260, 260])
  expect(pages.flatMap((p) => p.body.results.map((r: Rule) => r.id))).toEqual(all)
  const whole = await api.get(`${path}?limit=1000`, tokens.team_reader)
  expect(whole.body.results).toHaveLength(260)
  const past = await api.get(`${path}?offset=260`, tokens.team_reader)
  expect(past.text).toBe('{"results":[],"total":260}')
})

it('bounds limit to 1..1000 and offset to 0 and up', async () => {
  const high = await api.get(`${path}?limit=1001`, tokens.team_reader)
  expect(high.text).toBe(
    '{"detail":[{"type":"less_than_equal","loc":["query","limit"],"msg":"Input should be less than or equal to 1000","input":"1001","ctx":{"le":1000}}]}',
  )
  const both = await api.get(`${path}?offset=-1&limit=0`, tokens.team_reader)
  expect(both.body.detail.map((e: { loc: unknown[] }) => e.loc)).toEqual([
    ['query', 'limit'],
    ['query', 'offset'],
  ])
})

it('returns every rule field, with review fields null exactly while a rule is a draft', async () => {
  const { body } = await api.get(`${path}?limit=1000`, tokens.team_reader)
  const fields = [
    'id',
    'policy_id',
    'rule_id',
    'rule_type',
    'action',
    'consequence',
    'natural_language',
    'created_at',
    'updated_at',
    'target',
    'assignee',
    'constraints',
    'constraint_logic',
    'provenance',
    'category',
    'tags',
    'status',
    'reviewed_by',
    'reviewed_at',
    'review_notes',
  ]
  for (const rule of body.results) {
    expect(Object.keys(rule)).toEqual(fields)
    expect(Object.keys(rule.consequence)).toEqual(['action', 'severity', 'message'])
    expect(Object.keys(rule.provenance)).toEqual(['extracted_by', 'model_used', 'confidence_score', 'source_location'])
    expect(Object.keys(rule.provenance.source_location)).toEqual([
      'section',
      'paragraph',
      'char_start',
      'char_end',
      'source_text',
    ])
    const draft = rule.status === 'draft'
    expect([rule.reviewed_by === null, rule.reviewed_at === null, rule.review_notes === null], rule.rule_id).toEqual([
      draft,
      draft,
      draft,
    ])
  }
  for (const field of ['rule_type', 'category', 'status'] as const) {
    expect(new Set(body.results.map((r: Record<string, string>) => r[field])).size, field).toBe(
      { rule_type: 4, category: 7, status: 4 }[field],
    )
  }
})

it('writes a confidence score of one as the float 1.0, as Python does', async () => {
  const { text } = await api.get(`${path}?limit=1000`, tokens.team_reader)
  expect(text).toContain('"extracted_by":"manual","model_used":"","confidence_score":1.0,')
  expect(text).not.toMatch(/"confidence_score":1,/)
})

it('answers 404 for an unknown policy and for another team’s policy, but not to a super admin', async () => {
  const unknown = await api.get('/v1/policies/00000000-0000-4000-8000-000000000000/rules', tokens.team_reader)
  expect([unknown.status, unknown.text]).toEqual([404, '{"detail":"Policy not found"}'])
  const foreign = mock.fixtures.policies.find((p) => p.team_id !== mock.fixtures.teams[0]!.id)!
  const hidden = await api.get(`/v1/policies/${foreign.id}/rules`, tokens.team_reader)
  expect([hidden.status, hidden.text]).toEqual([404, '{"detail":"Policy not found"}'])
  const admin = await api.get(`/v1/policies/${foreign.id}/rules`, tokens.super_admin)
  expect(admin.status).toBe(200)
  expect(admin.body.results.every((r: Rule) => r.policy_id === foreign.id)).toBe(true)
})

it('requires policy:read, before validating the path', async () => {
  const res = await api.get('/v1/policies/not-a-uuid/rules?limit=0', tokens.persona_reader)
  expect([res.status, res.text]).toEqual([403, '{"detail":"Missing permission: policy:read"}'])
})

it('reports a bad path and bad paging together, path first', async () => {
  const res = await api.get('/v1/policies/123/rules?offset=x', tokens.team_reader)
  expect(res.body.detail.map((e: { type: string; loc: unknown[] }) => [e.type, ...e.loc])).toEqual([
    ['uuid_parsing', 'path', 'policy_id'],
    ['int_parsing', 'query', 'offset'],
  ])
})

it('lists a one-rule policy', async () => {
  const single = mock.fixtures.policies.find((p) => p.name === 'Brand Voice')!
  const res = await api.get(`/v1/policies/${single.id}/rules`, tokens.team_reader)
  expect([res.body.total, res.body.results.length]).toEqual([1, 1])
})
