/**
 * Recorded contracts in Node (createMockServer): what the app asked and what the mock answered, each distinct
 * interaction once, normalised the same way in every run; overrides, faults and scenario claims left out.
 */
import { expect, it } from 'vitest'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { client } from '../support/client.js'

async function traffic(mock: MockServer): Promise<void> {
  const api = client(mock)
  const { teams, policies, dimensions, tokens } = mock.fixtures
  await api.get(`/v1/personas/?team_id=${teams[0]!.id}&limit=3`, tokens.team_reader)
  await api.get(`/v1/personas/?team_id=${teams[0]!.id}&limit=3`, tokens.team_reader)
  await api.get(`/v1/personas/?team_id=${teams[0]!.id}&limit=3`, tokens.persona_reader)
  await api.get(`/v1/policies/${policies[0]!.id}/rules`, tokens.persona_reader)
  await api.get(`/v1/personas/?team_id=${teams[0]!.id}`, tokens.expired)
  await api.post(`/v1/demographics/${dimensions[0]!.id}/values/bulk`, { values: [{ value: 'v' }] }, tokens.super_admin)
  await api.post(`/v1/demographics/${dimensions[0]!.id}/values/bulk`, '{"values": [', tokens.super_admin)
}

it('records each distinct interaction once, in order, with references, roles and the answer', async () => {
  const mock = await createMockServer({ seed: 12, personasPerTeam: 8 })
  try {
    await traffic(mock)
    const contract = await mock.contract()
    expect(contract.format).toBe('agent-console-mock/contract')
    expect(contract.profile).toMatchObject({ pydantic: '2.12', bulkAddStatus: 201 })
    const summary = contract.interactions.map((item) => `${item.n} ${item.role} ${item.response.status}`)
    expect(summary).toEqual([
      '1 team_reader 200',
      '2 persona_reader 200',
      '3 persona_reader 403',
      '4 invalid 401',
      '5 super_admin 201',
      '6 super_admin 422',
    ])
    const [page, , , , added, broken] = contract.interactions
    expect(page!.query).toBe('team_id={{team 0}}&limit=3')
    expect(page!.response).toMatchObject({ total: 8, count: 3, example: { team_id: '{{team 0}}', created_at: 0 } })
    expect(added!.body).toEqual({ values: [{ value: 'v' }] })
    expect(added!.response.example).toMatchObject({
      id: '{{value 0 of interaction 5}}',
      dimension_id: '{{dimension 0}}',
    })
    expect(broken!.rawBody).toBe('{"values": [')
    expect(broken!.response.body).toMatchObject({ detail: [{ type: 'json_invalid' }] })
  } finally {
    mock.close()
  }
})

it('writes the same file for the same run', async () => {
  const texts: string[] = []
  for (let run = 0; run < 2; run++) {
    const mock = await createMockServer({ seed: 12, personasPerTeam: 8 })
    try {
      await traffic(mock)
      texts.push(JSON.stringify(await mock.contract()))
    } finally {
      mock.close()
    }
  }
  expect(texts[0]).toBe(texts[1])
})

it('leaves out what the test arranged: typed overrides, injected errors, scenario claims', async () => {
  const mock = await createMockServer({ seed: 12, personasPerTeam: 8 })
  try {
    const api = client(mock)
    const { teams, policies, tokens } = mock.fixtures
    mock.override('list_policy_rules', { error: 'not_found' })
    await api.get(`/v1/policies/${policies[0]!.id}/rules`, tokens.team_reader)
    await api.send('PUT', '/__mock/faults', undefined, { error: { status: 503, rate: 1 } })
    await api.get(`/v1/personas/?team_id=${teams[0]!.id}`, tokens.team_reader)
    await api.send('PUT', '/__mock/faults', undefined, {})
    await api.get(`/v1/personas/?team_id=${teams[0]!.id}`, tokens.team_reader, { 'x-mock-scenario': 'forbidden-user' })
    expect((await mock.contract()).interactions).toEqual([])
    await api.get(`/v1/personas/?team_id=${teams[0]!.id}`, tokens.team_reader)
    expect((await mock.contract()).interactions).toHaveLength(1)
    expect((await api.send('DELETE', '/__mock/contract')).status).toBe(204)
    expect((await mock.contract()).interactions).toEqual([])
  } finally {
    mock.close()
  }
})

it('keeps a bounded number of interactions and says how many it left out', { timeout: 180_000 }, async () => {
  const mock = await createMockServer({ seed: 12, personasPerTeam: 1 })
  try {
    const api = client(mock)
    const { teams, tokens } = mock.fixtures
    for (let offset = 0; offset < 2003; offset++)
      await api.get(`/v1/personas/?team_id=${teams[0]!.id}&offset=${offset}`, tokens.team_reader)
    const answer = await api.get('/__mock/contract')
    expect(answer.body.interactions).toHaveLength(2000)
    expect(answer.headers.get('x-contract-dropped')).toBe('3')
    expect((await api.get('/__mock/contract?format=har')).status).toBe(400)
  } finally {
    mock.close()
  }
})

it('keeps at most 4 MiB of interactions, and no request past 64 KiB: those are counted, not kept', async () => {
  const mock = await createMockServer({ seed: 12, personasPerTeam: 1 })
  try {
    const api = client(mock)
    const { dimensions, tokens } = mock.fixtures
    const path = `/v1/demographics/${dimensions[0]!.id}/values/bulk`
    for (let i = 0; i < 80; i++) await api.post(path, `${'x'.repeat(60_000)}${i}`, tokens.super_admin)
    await api.post(path, 'y'.repeat(70_000), tokens.super_admin)
    const contract = await mock.contract()
    expect(contract.interactions.length).toBe(69)
    expect(contract.interactions.every((item) => item.rawBody?.startsWith('x'))).toBe(true)
    expect((await api.get('/__mock/contract')).headers.get('x-contract-dropped')).toBe('12')
  } finally {
    mock.close()
  }
})
