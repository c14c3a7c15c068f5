/** The passive judge on bulk adds, error answers, statuses and routes. */
import { expect, it } from 'vitest'
import { judgeExchange } from '../../verify/index.js'
import { checksOf, corrupt, dimensions, exchange, tokens } from './support/judge.js'

const bulk = (values: unknown[]) =>
  exchange('POST', `/v1/demographics/${dimensions[1]!.id}/values/bulk`, { token: tokens.super_admin, body: { values } })

it('flags bulk answers that do not hold the values sent, in order, in the dimension', async () => {
  const added = await bulk([{ value: 'j-1' }, { value: 'j-2', display_name: 'Two' }, { value: 'j-3' }])
  expect(judgeExchange(added)).toEqual([])
  const renamed = corrupt(added, (body) => ((body[1].display_name = 'j-2'), body))
  expect(checksOf(judgeExchange(renamed))).toEqual(['bulk.records'])
  const nullName = corrupt(added, (body) => ((body[0].display_name = null), body))
  expect(checksOf(judgeExchange(nullName))).toEqual(['schema.bulk-values'])
  expect(checksOf(judgeExchange(corrupt(added, (body) => body.reverse())))).toEqual(['bulk.records'])
  const moved = corrupt(added, (body) => ((body[2].dimension_id = dimensions[0]!.id), body))
  expect(checksOf(judgeExchange(moved))).toEqual(['bulk.records'])
  const skipped = corrupt(added, (body) => body.slice(1))
  expect(judgeExchange(skipped), 'skip: a value already there is left out').toEqual([])
  expect(checksOf(judgeExchange(skipped, { profile: { bulkDuplicates: 'reject' } }))).toEqual(['bulk.records'])
  expect(judgeExchange({ ...added, status: 200 }), 'bulkAddStatus is a profile choice').toEqual([])
  const twice = await bulk([{ value: 'j-4' }, { value: 'j-4' }])
  expect(twice.responseBody).toHaveLength(1)
  const again = corrupt(twice, (body) => [body[0], { ...body[0], id: crypto.randomUUID() }])
  expect(judgeExchange(again), 'a profile that does not say: storing again is a choice').toEqual([])
  expect(judgeExchange(again, { profile: { bulkDuplicates: 'store' } })).toEqual([])
  expect(checksOf(judgeExchange(again, { profile: { bulkDuplicates: 'skip' } }))).toEqual(['bulk.duplicates'])
  expect(checksOf(judgeExchange(skipped, { profile: { bulkDuplicates: 'store' } }))).toEqual(['bulk.records'])
})

it('flags a success status the operation does not answer', async () => {
  const page = await exchange('GET', '/v1/personas/')
  expect(checksOf(judgeExchange({ ...page, status: 201 }))).toEqual(['status'])
})

it('takes 422 bodies in either pydantic dialect and flags any other shape', async () => {
  const refused = await exchange('GET', '/v1/personas/?limit=0')
  expect(refused.status).toBe(422)
  expect(judgeExchange(refused)).toEqual([])
  const v1 = {
    detail: [
      {
        loc: ['query', 'limit'],
        msg: 'ensure this value is greater than or equal to 1',
        type: 'value_error.number.not_ge',
        ctx: { limit_value: 1 },
      },
    ],
  }
  expect(judgeExchange({ ...refused, responseBody: v1 })).toEqual([])
  const flat = corrupt(refused, (body) => ({ errors: body.detail }))
  expect(checksOf(judgeExchange(flat))).toEqual(['schema.validation-error'])
  const noLoc = corrupt(refused, (body) => ((body.detail[0].loc = 'query.limit'), body))
  expect(checksOf(judgeExchange(noLoc))).toEqual(['schema.validation-error'])
})

it('takes refusals whatever their body, which the description leaves open', async () => {
  const refused = await exchange('GET', '/v1/personas/', { token: tokens.no_permissions })
  expect(refused.status).toBe(403)
  expect(judgeExchange(refused)).toEqual([])
  expect(judgeExchange({ ...refused, responseBody: { error: { code: 'forbidden' } } })).toEqual([])
  expect(judgeExchange({ ...refused, status: 400, responseBody: undefined })).toEqual([])
  const unknown = await exchange('GET', '/v1/nothing')
  expect([unknown.status, judgeExchange(unknown)]).toEqual([404, []])
  expect(judgeExchange({ ...refused, status: 500, responseBody: undefined }), 'a crash says nothing').toEqual([])
})

it('flags a success for an API path that does not exist, not for other paths', async () => {
  const unknown = { method: 'GET', path: '/v1/persona', query: '', status: 200, responseBody: {} }
  expect(checksOf(judgeExchange(unknown))).toEqual(['route'])
  expect(judgeExchange({ ...unknown, path: '/assets/app.js' })).toEqual([])
  expect(checksOf(judgeExchange({ ...unknown, method: 'DELETE', path: '/v1/personas/' }))).toEqual(['route'])
  const preflight = { ...unknown, method: 'OPTIONS', path: '/v1/personas/', responseBody: undefined }
  expect(judgeExchange(preflight), "a CORS preflight is the middleware's").toEqual([])
})

it('reads no meaning into a success for a request the server should have refused', async () => {
  const page = await exchange('GET', '/v1/personas/?limit=5')
  const lax = { ...page, query: 'limit=abc' }
  expect(judgeExchange(lax), 'a laxer server keeps the app working').toEqual([])
})
