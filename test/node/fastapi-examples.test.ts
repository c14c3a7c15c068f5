import { it } from 'vitest'
import { createMockServer } from 'agent-console-mock/node'
it('probe', async () => {
  const mock = await createMockServer({ seed: 1 })
  const t = mock.fixtures.tokens
  console.log(JSON.stringify(mock.fixtures.teams), JSON.stringify(mock.fixtures.dimensions), JSON.stringify(mock.fixtures.policies))
  const show = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(mock.url(path), { redirect: 'manual', ...init })
    console.log(init.method ?? 'GET', path, res.status, [...res.headers].map(h => h.join(': ')).join(' | '), (await res.text()).slice(0, 400))
  }
  const auth = (tok: string) => ({ authorization: `Bearer ${tok}` })
  await show('/v1/personas/?limit=2', { headers: auth(t.team_reader) })
  await show('/v1/personas?limit=5&intents=a%20b')
  await show('/v1/personas?search=a|b`^{}')
  await show('/v1/personas/', { method: 'HEAD' })
  await show('/v1/personas/', { method: 'OPTIONS' })
  await show('/v1/nope')
  await show(`/v1/demographics/${mock.fixtures.dimensions[0]!.id}/values/bulk`, { method: 'POST', headers: { ...auth(t.super_admin), 'content-type': 'application/json' }, body: '{"values":[{"value":"x"},{"value":"18-24"},{"value":"y","sort_order":"7","metadata":{"b":1.0,"10":[1e2]}}]}' })
  await show('/v1/personas/', { headers: { authorization: 'Bearer  ' + t.team_reader } })
  await show('/v1/personas/', { headers: { authorization: '' } })
  mock.close()
})
