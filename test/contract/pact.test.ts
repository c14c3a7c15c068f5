/**
 * The recorded contract as a Pact v4 file (`GET /__mock/contract?format=pact`), verified by the official Pact
 * verifier (@pact-foundation/pact's Rust core) against a fresh standalone mock of the same seed.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Verifier } from '@pact-foundation/pact'
import { expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { startMock } from './support/mock.js'

const SEED = { seed: 9, personasPerTeam: 30 }

async function appTraffic(running: RunningServer): Promise<void> {
  const { teams, policies, dimensions, tokens } = running.sessions.primary.fixtures
  const send = (path: string, token?: string, body?: unknown) =>
    fetch(running.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  await send(`/v1/personas/?team_id=${teams[0]!.id}&limit=5&intents=benign&intents=curious`, tokens.team_reader)
  await send(`/v1/personas/?team_id=${teams[0]!.id}&search=zzzz-nothing`, tokens.team_reader)
  await send(`/v1/personas/?team_id=${teams[1]!.id}`, tokens.team_reader)
  await send(`/v1/personas/?team_id=not-a-uuid`, tokens.team_reader)
  await send(`/v1/personas/?team_id=${teams[0]!.id}`)
  await send(`/v1/policies/${policies[0]!.id}/rules?limit=2`, tokens.team_reader)
  await send(`/v1/demographics/${dimensions[0]!.id}/values/bulk`, tokens.super_admin, {
    values: [{ value: 'pact-a', display_name: 'Pact A', metadata: { rank: 1 } }, { value: 'pact-b' }],
  })
}

it('writes a Pact v4 file whose matchers come from the response models, and the Pact verifier passes it', async () => {
  const recorded = await startMock(SEED)
  await appTraffic(recorded)
  const pactText = await (await fetch(`${recorded.url}/__mock/contract?format=pact`)).text()
  await recorded.close()
  const pact = JSON.parse(pactText)
  expect(pact.metadata.pactSpecification.version).toBe('4.0')
  expect(pact.interactions).toHaveLength(7)
  const list = pact.interactions[0]
  expect(list.request.query.intents).toEqual(['benign', 'curious'])
  const rules = list.response.matchingRules.body
  expect(rules['$.results']).toEqual({ combine: 'AND', matchers: [{ match: 'type', min: 0 }] })
  expect(rules['$.results[*].intent'].matchers[0]).toEqual({
    match: 'regex',
    regex: '^(benign|curious|adversarial|malicious)$',
  })
  expect(rules['$.results[*].id'].matchers[0].match).toBe('regex')
  expect(rules['$.total'].matchers[0]).toEqual({ match: 'integer' })

  const folder = await mkdtemp(join(tmpdir(), 'acm-pact-'))
  const file = join(folder, 'agent-console-app-agent-console-api.json')
  await writeFile(file, pactText)
  const provider = await startMock(SEED)
  try {
    const verifier = new Verifier({
      provider: 'agent-console-api',
      providerBaseUrl: provider.url,
      pactUrls: [file],
      logLevel: 'error',
    })
    await expect(verifier.verifyProvider()).resolves.toBeDefined()
  } finally {
    await provider.close()
  }
  expect(JSON.parse(await readFile(file, 'utf8')).interactions).toHaveLength(7)
})

it('fails the Pact verifier when the provider breaks a recorded answer', async () => {
  const recorded = await startMock(SEED)
  await appTraffic(recorded)
  const pactText = await (await fetch(`${recorded.url}/__mock/contract?format=pact`)).text()
  await recorded.close()
  const folder = await mkdtemp(join(tmpdir(), 'acm-pact-'))
  const file = join(folder, 'pact.json')
  await writeFile(file, pactText)
  const { BROKEN_VARIANTS } = await import('./broken-variants.js')
  const provider = await startMock(SEED)
  const variant = BROKEN_VARIANTS.find((item) => item.bug === 'persona timestamps as ISO strings')!
  provider.use(...variant.handlers(provider.sessions.primary.fixtures))
  try {
    const verifier = new Verifier({ providerBaseUrl: provider.url, pactUrls: [file], logLevel: 'error' })
    await expect(verifier.verifyProvider()).rejects.toThrow()
  } finally {
    await provider.close()
  }
})
