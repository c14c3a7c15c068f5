import { expect, it } from 'vitest'
import {
  contractOf,
  contractText,
  ContractFileError,
  mergeContracts,
  parseContract,
  type Interaction,
} from '../../verify/recording/format.js'
import { referenceTable, referTo, referToInJson, resolveReferences } from '../../verify/recording/references.js'
import { roleOfClaims } from '../../verify/recording/roles.js'

const TEAM_A = '11111111-1111-4111-8111-111111111111'
const TEAM_B = '22222222-2222-4222-8222-222222222222'
const POLICY = '33333333-3333-4333-8333-333333333333'
const table = referenceTable({
  teams: [{ id: TEAM_A }, { id: TEAM_B }],
  dimensions: [{ id: '44444444-4444-4444-8444-444444444444' }],
  policies: [
    { id: POLICY, team_id: TEAM_B },
    { id: '55555555-5555-4555-8555-555555555555', team_id: TEAM_B },
  ],
})

it('names ids by their place in the world, policies by their team, in any case', () => {
  const used = new Set<string>()
  expect(referTo(`team_id=${TEAM_A.toUpperCase()}&x=${TEAM_B}`, table, used)).toBe('team_id={{team 0}}&x={{team 1}}')
  expect(referTo('/v1/policies/55555555-5555-4555-8555-555555555555/rules', table)).toBe(
    '/v1/policies/{{policy 1 of team 1}}/rules',
  )
  expect([...used]).toEqual(['team 0', 'team 1'])
  const unknown = '99999999-9999-4999-8999-999999999999'
  expect(referTo(`id=${unknown}`, table)).toBe(`id=${unknown}`)
  expect(referToInJson({ [TEAM_A]: [POLICY, 1, null] }, table)).toEqual({
    '{{team 0}}': ['{{policy 0 of team 1}}', 1, null],
  })
})

it('puts the given ids back, and leaves a reference it has no id for', () => {
  const ids: Record<string, string> = { 'team 0': 'T0' }
  expect(resolveReferences('a={{team 0}}&b={{team 9}}', (name) => ids[name])).toBe('a=T0&b={{team 9}}')
})

it('names roles by their claims, the team when not the first', () => {
  expect(roleOfClaims({ permissions: [], is_super_admin: true }, table)).toBe('super_admin')
  const reader = { permissions: ['policy:read', 'persona:read'], is_super_admin: false }
  expect(roleOfClaims({ ...reader, team_id: TEAM_A }, table)).toBe('team_reader')
  expect(roleOfClaims({ ...reader, team_id: TEAM_B }, table)).toBe('team_reader of team 1')
  expect(roleOfClaims({ permissions: ['persona:read'], is_super_admin: false, team_id: TEAM_A }, table)).toBe(
    'persona_reader',
  )
  expect(roleOfClaims({ permissions: ['x:y'], is_super_admin: false, team_id: null }, table)).toBe(
    'reader of x:y of no team',
  )
})

const interaction = (test: string, n: number): Interaction => ({
  test,
  n,
  operation: 'list_personas',
  method: 'GET',
  path: '/v1/personas/',
  query: `n=${n}`,
  role: 'team_reader',
  response: { status: 200, total: 0, count: 0 },
})

it('merges parts by test, whatever order the workers wrote them in; another profile stays with its interactions', () => {
  const a = contractOf({ pydantic: '2.12' }, { 'team 0': 'x' }, [interaction('b', 1), interaction('b', 2)])
  const b = contractOf({ pydantic: '1' }, { 'dimension 0': 'y' }, [interaction('a', 1)])
  const merged = mergeContracts([a, b])
  expect(merged.interactions.map((item) => `${item.test}${item.n}`)).toEqual(['a1', 'b1', 'b2'])
  expect(merged.interactions[0]!.profile).toEqual({ pydantic: '1' })
  expect(merged.interactions[1]!.profile).toBeUndefined()
  expect(Object.keys(merged.references)).toEqual(['dimension 0', 'team 0'])
  const c = contractOf({ pydantic: '2.12' }, {}, [interaction('c', 1)])
  expect(contractText(mergeContracts([a, c]))).toBe(contractText(mergeContracts([c, a])))
})

it('reads its own files back, and says what is wrong with another', () => {
  const contract = contractOf({}, {}, [interaction('', 1)])
  expect(parseContract(contractText(contract))).toEqual(contract)
  expect(() => parseContract('{')).toThrow(ContractFileError)
  expect(() => parseContract('{"format":"agent-console-mock/state"}')).toThrow(/not a recorded contract .*format/)
})
