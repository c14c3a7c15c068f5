/**
 * `proxy --record`: the traffic that passes the proxy becomes a recorded contract (GET /__mock/contract, and
 * the file on stop) that `verify --replay` replays: it passes against the server it was recorded on and fails
 * where a broken one breaks it. The real server's ids stay as they were sent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startProxy } from 'agent-console-mock/server'
import { type RecordedContract, replay } from '../../verify/index.js'
import { BROKEN_VARIANTS } from '../contract/broken-variants.js'
import { startMock } from '../contract/support/mock.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-proxy-record-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it('records the distinct interactions with roles, writes them on stop, and replays them', async () => {
  const mock = await startMock()
  const file = join(folder, 'contract.json')
  const proxy = await startProxy({ target: mock.url, port: 0, record: file })
  const { teams, policies, tokens } = mock.sessions.primary.fixtures
  const get = (path: string, token?: string) =>
    fetch(proxy.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.text())
  let contract: RecordedContract
  try {
    await get(`/v1/personas/?team_id=${teams[0]!.id}&intents=curious&limit=100`, tokens.team_reader)
    await get(`/v1/personas/?team_id=${teams[0]!.id}&intents=curious&limit=100`, tokens.team_reader)
    await get(`/v1/policies/${policies[0]!.id}/rules?limit=3`, tokens.team_reader)
    await get('/v1/personas/')
    await get('/v1/personas/', 'not-a-token')
    await get('/v1/nothing', tokens.team_reader)
    const served = (await (await fetch(`${proxy.url}/__mock/contract`)).json()) as RecordedContract
    expect(served.interactions.map((item) => [item.operation, item.role, item.response.status])).toEqual([
      ['list_personas', 'team_reader', 200],
      ['list_policy_rules', 'team_reader', 200],
      ['list_personas', 'anonymous', 401],
      ['list_personas', 'invalid', 401],
    ])
    expect(served.interactions[1]!.path, 'ids as sent').toBe(`/v1/policies/${policies[0]!.id}/rules`)
  } finally {
    await proxy.close()
  }
  try {
    contract = JSON.parse(readFileSync(file, 'utf8'))
    expect(contract.interactions).toHaveLength(4)
    const options = { contract, references: {}, tokens: { team_reader: tokens.team_reader } }
    const passed = await replay({ baseUrl: mock.url, ...options })
    expect(passed.summary).toMatchObject({ passed: 4, failed: 0 })
    const variant = BROKEN_VARIANTS.find((candidate) => candidate.bug === 'intents ignored')!
    mock.use(...variant.handlers(mock.sessions.primary.fixtures))
    const broken = await replay({ baseUrl: mock.url, ...options })
    expect(broken.summary).toMatchObject({ passed: 3, failed: 1 })
  } finally {
    await mock.close()
  }
})

it('refuses to start when the --record file cannot be written, naming it', async () => {
  const file = join(tmpdir(), 'acm-no-such-folder', 'contract.json')
  await expect(startProxy({ target: 'http://127.0.0.1:9', port: 0, record: file })).rejects.toThrow(
    `cannot write the recorded contract to ${file}: ENOENT`,
  )
})
