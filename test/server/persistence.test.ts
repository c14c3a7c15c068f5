import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { http, startTestServer } from '../support/server.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-state-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it('keeps the world in the state file across a restart', async () => {
  const stateFile = join(folder, 'world.json')
  const first = await startTestServer({ seed: 15, stateFile })
  const dimension = first.sessions.primary.fixtures.dimensions[0]!.id
  const added = await http(first)(`/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    token: first.sessions.primary.fixtures.tokens.super_admin,
    json: { values: [{ value: 'survives', sort_order: '12345678901234567890' }] },
  })
  expect(added.status).toBe(201)
  await first.close()
  expect(JSON.parse(readFileSync(stateFile, 'utf8')).format).toBe('agent-console-mock/state')

  const second = await startTestServer({ seed: 999, stateFile })
  try {
    const values = second.sessions.primary.world.values.all().filter((v) => v.value === 'survives')
    expect(values.map((v) => v.sort_order)).toEqual([12345678901234567890n])
    expect(second.sessions.primary.fixtures.seed, 'the seed comes from the state file').toBe(15)
  } finally {
    await second.close()
  }
})

it('refuses a corrupt or foreign state file with a clear error, and leaves it untouched', async () => {
  for (const [name, content] of [
    ['corrupt.json', '{"format": "agent-console-mock/state", "version": 1, "wor'],
    ['foreign.json', '{"name": "something else"}'],
  ] as const) {
    const stateFile = join(folder, name)
    writeFileSync(stateFile, content)
    await expect(startTestServer({ stateFile })).rejects.toThrow(
      new RegExp(`${name} is not a usable state file: .*left untouched`),
    )
    expect(readFileSync(stateFile, 'utf8')).toBe(content)
  }
})

it('starts from the seeded world when the state file does not exist yet, and writes it at the first change only', async () => {
  const stateFile = join(folder, 'new.json')
  const reader = await startTestServer({ seed: 16, stateFile })
  try {
    expect(reader.sessions.primary.fixtures.seed).toBe(16)
    expect(
      (await http(reader)('/v1/personas/', { token: reader.sessions.primary.fixtures.tokens.team_reader })).status,
    ).toBe(200)
  } finally {
    await reader.close()
  }
  expect(existsSync(stateFile), 'reads and a clean stop leave no file').toBe(false)

  const writer = await startTestServer({ seed: 16, stateFile })
  const dimension = writer.sessions.primary.fixtures.dimensions[0]!.id
  const added = await http(writer)(`/v1/demographics/${dimension}/values/bulk`, {
    method: 'POST',
    token: writer.sessions.primary.fixtures.tokens.super_admin,
    json: { values: [{ value: 'first change' }] },
  })
  expect(added.status).toBe(201)
  await writer.close()
  expect(
    JSON.parse(readFileSync(stateFile, 'utf8')).world.values.some((v: { value: string }) => v.value === 'first change'),
  ).toBe(true)
})
