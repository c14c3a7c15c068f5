/**
 * The passive judge (verify/judge/index.ts) on real answers of the mock, in process: each correct answer keeps the
 * contract, and each broken copy of one is flagged with the check it breaks.
 */
import { expect, it } from 'vitest'
import { judgeExchange } from '../../verify/index.js'
import { checksOf, corrupt, dimensions, exchange, policies, teams, tokens } from './support/judge.js'

const team = teams[0]!.id
const personas = (query: string) => exchange('GET', `/v1/personas/?team_id=${team}&${query}`)
const rules = (query = '') => exchange('GET', `/v1/policies/${policies[0]!.id}/rules?${query}`)

it('finds nothing wrong in the mock answers to filtered and paged queries', async () => {
  const answers = await Promise.all([
    personas(''),
    personas('intents=benign&intents=malicious&limit=7&offset=3'),
    personas('is_preset=no&search=A'),
    personas('is_preset=1&limit=100'),
    personas('offset=1000'),
    exchange('GET', '/v1/personas/?limit=3'),
    rules(),
    rules('limit=2&offset=1'),
    exchange('POST', `/v1/demographics/${dimensions[0]!.id}/values/bulk`, {
      token: tokens.super_admin,
      body: {
        values: [{ value: 'judge-a' }, { value: 'judge-b', display_name: 'B', metadata: { k: 1 }, sort_order: 4 }],
      },
    }),
  ])
  for (const answer of answers) expect(judgeExchange(answer), `${answer.path}?${answer.query}`).toEqual([])
  expect(answers.every((answer) => answer.status < 300)).toBe(true)
  const spelled = { ...answers[0]!, query: `team_id=${team.toUpperCase().replaceAll('-', '')}` }
  expect(judgeExchange(spelled), 'another spelling of the same uuid, as pydantic reads it').toEqual([])
})

it('flags a persona of another team, and an answer mixing teams when none was asked for', async () => {
  const page = await personas('')
  const leaked = corrupt(page, (body) => ((body.results[2].team_id = teams[1]!.id), body))
  expect(checksOf(judgeExchange(leaked))).toEqual(['filters.team-scope'])
  const unscoped = corrupt(
    await exchange('GET', '/v1/personas/'),
    (body) => ((body.results[0].team_id = teams[1]!.id), body),
  )
  expect(checksOf(judgeExchange(unscoped))).toEqual(['filters.team-scope'])
})

it('reads ids in upper case as the same ids: a UUID in either case keeps the contract', async () => {
  const upper = (body: { results: Array<Record<string, unknown>> }) => {
    for (const record of body.results)
      for (const field of ['id', 'team_id', 'policy_id', 'dimension_id'])
        if (typeof record[field] === 'string') record[field] = (record[field] as string).toUpperCase()
    return body
  }
  const value = { values: [{ value: 'judge-upper' }] }
  const bulk = await exchange('POST', `/v1/demographics/${dimensions[0]!.id}/values/bulk`, {
    token: tokens.super_admin,
    body: value,
  })
  const answers = [await personas(''), await exchange('GET', '/v1/personas/'), await rules()]
  for (const answer of answers) expect(judgeExchange(corrupt(answer, upper)), answer.path).toEqual([])
  expect(judgeExchange(corrupt(bulk, (body) => upper({ results: body }).results))).toEqual([])
  const stranger = corrupt(await personas(''), (body) => ((body.results[1].team_id = teams[1]!.id.toUpperCase()), body))
  expect(checksOf(judgeExchange(stranger))).toEqual(['filters.team-scope'])
})

it('flags each filter the answer ignores', async () => {
  const intents = await personas('intents=curious&intents=adversarial')
  const ignored = corrupt(intents, (body) => ((body.results[0].intent = 'benign'), body))
  expect(checksOf(judgeExchange(ignored))).toEqual(['filters.intents'])
  const preset = await personas('is_preset=off')
  expect(checksOf(judgeExchange(corrupt(preset, (body) => ((body.results[0].is_preset = true), body))))).toEqual([
    'filters.is-preset',
  ])
  const search = await personas('search=a')
  const unmatched = { name: 'Zed', description: null, role: 'xyz' }
  expect(checksOf(judgeExchange(corrupt(search, (body) => (Object.assign(body.results[0], unmatched), body))))).toEqual(
    ['filters.search-fields'],
  )
})

it('flags a total or page size that cannot be, and more results than the limit', async () => {
  const page = await personas('limit=5&offset=5')
  expect(checksOf(judgeExchange(corrupt(page, (body) => ({ ...body, total: 7 }))))).toEqual(['paging.total'])
  expect(checksOf(judgeExchange(corrupt(page, (body) => ({ ...body, results: body.results.slice(1) }))))).toEqual([
    'paging.page-size',
  ])
  const longer = corrupt(page, (body) => ({ ...body, results: [...body.results, body.results[0]] }))
  expect(checksOf(judgeExchange(longer))).toEqual(['paging.limit-respected'])
  const defaulted = await personas('')
  expect(defaulted.responseBody).toMatchObject({ results: { length: 10 } })
  const twenty = corrupt(defaulted, (body) => ({ ...body, results: [...body.results, ...body.results] }))
  expect(checksOf(judgeExchange(twenty)), 'the default limit is 10').toEqual(['paging.limit-respected'])
})

it('flags a list that is not the contract shape, and reads nothing more from it', async () => {
  const page = await personas('')
  const lost = corrupt(page, (body) => (delete body.results[0].role_description, body))
  expect(checksOf(judgeExchange(lost))).toEqual(['schema.persona-list'])
  const iso = corrupt(await rules(), (body) => ((body.results[0].updated_at = '2025-01-01T00:00:00Z'), body))
  expect(judgeExchange(iso)).toEqual([expect.objectContaining({ check: 'schema.rule-list' })])
  expect(checksOf(judgeExchange({ ...page, responseBody: undefined, contentType: 'text/html' }))).toEqual([
    'schema.persona-list',
  ])
  const extra = corrupt(page, (body) => ((body.results[0].nickname = 'x'), body))
  expect(judgeExchange(extra), 'an unknown extra field is no violation').toEqual([])
})

it('flags rules of another policy, with the paging names of the profile', async () => {
  const page = await rules('limit=3')
  const stranger = corrupt(page, (body) => ((body.results[1].policy_id = policies[1]!.id), body))
  expect(checksOf(judgeExchange(stranger))).toEqual(['rules.policy-scope'])
  // Named page_size/start by the profile: limit=3 is not a paging parameter there, so 3 results of 100 are short.
  const profile = { rulesPaging: { limit: 'page_size', offset: 'start', defaultLimit: 100 } }
  expect(checksOf(judgeExchange(page, { profile }))).toEqual(['paging.page-size'])
  expect(judgeExchange({ ...page, query: 'page_size=3' }, { profile })).toEqual([])
  // Without a profile that names them, the names and default are the server's choice: only an impossible total.
  const short = corrupt(page, (body) => ({ ...body, results: body.results.slice(1) }))
  expect(judgeExchange(short)).toEqual([])
  const named = { rulesPaging: { limit: 'limit', offset: 'offset', defaultLimit: 100 } }
  expect(checksOf(judgeExchange(short, { profile: named }))).toEqual(['paging.page-size'])
  expect(checksOf(judgeExchange(corrupt(page, (body) => ({ ...body, total: 2 }))))).toEqual(['paging.total'])
})
