import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { ServerOptions } from 'agent-console-mock/server'
import { http, startTestServer } from '../support/server.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-conflict-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Starts a server on the state file, with its info log kept. */
async function start(stateFile: string, options: ServerOptions) {
  const info: string[] = []
  const running = await startTestServer({
    stateFile,
    ...options,
    logger: { info: (line) => void info.push(line), error: () => undefined },
  })
  return { running, call: http(running), info }
}

it('says when a loaded state file holds another seed or size than the configured ones, and resets to the configured', async () => {
  const stateFile = join(folder, 'state.json')
  const first = await start(stateFile, { seed: 3, personasPerTeam: 2 })
  expect(first.running.stateFileConflict, 'no file yet: nothing loaded').toBeUndefined()
  expect((await first.call('/__mock/reset', { method: 'POST' })).status).toBe(200) // writes the snapshot
  await first.running.close()

  const second = await start(stateFile, { seed: 4, personasPerTeam: 2 })
  try {
    const expected =
      `${stateFile} holds a world of seed 3 with 2 personas per team, served instead of the configured --seed 4; ` +
      'POST /__mock/reset starts over with seed 4 and 2 personas per team'
    expect(second.running.stateFileConflict).toBe(expected)
    expect(second.info).toContain(`agent-console-mock: ${expected}`)
    expect((await second.call('/__mock/fixtures')).json.seed, 'the state file wins at start').toBe(3)
    const reset = await second.call('/__mock/reset', { method: 'POST', body: '{}' })
    expect(reset.json.seed).toBe(4)
  } finally {
    await second.running.close()
  }

  const both = await start(stateFile, { seed: 5, personasPerTeam: 1 })
  await both.running.close()
  expect(both.running.stateFileConflict).toContain('served instead of the configured --seed 5 --personas 1;')

  const agreeing = await start(stateFile, { seed: 4, personasPerTeam: 2 })
  await agreeing.running.close()
  expect(agreeing.running.stateFileConflict, 'the file holds seed 4 now').toBeUndefined()
  expect(agreeing.info.filter((line) => line.includes('holds a world'))).toEqual([])
})

it('says a state file of imported records holds an imported world, through restarts, until a reset', async () => {
  const source = await start(join(folder, 'source.json'), { seed: 1, personasPerTeam: 2 })
  const exported = (await source.call('/__mock/state')).text
  await source.running.close()
  const stateFile = join(folder, 'imported.json')
  writeFileSync(stateFile, exported.replace('"personasPerTeam":2,', '"personasPerTeam":2,"imported":true,'))

  const expected =
    `${stateFile} holds a world imported from a server (agent-console-mock import), served instead of the configured ` +
    '--seed 9; POST /__mock/reset starts over with seed 9 and 2 personas per team'
  const first = await start(stateFile, { seed: 9, personasPerTeam: 2 })
  try {
    expect(first.running.stateFileConflict).toBe(expected)
    const { dimensions, tokens } = (await first.call('/__mock/fixtures')).json
    const added = await first.call(`/v1/demographics/${dimensions[0].id}/values/bulk`, {
      method: 'POST',
      token: tokens.super_admin,
      json: { values: [{ value: 'after-import' }] },
    })
    expect(added.status).toBe(201)
    expect((await first.call('/__mock/state')).text).toContain('"personasPerTeam":2,"imported":true,')
  } finally {
    await first.running.close()
  }
  const rewritten = readFileSync(stateFile, 'utf8')
  expect(rewritten, 'a snapshot with the value added').toContain('"value":"after-import"')
  expect(rewritten).toContain('"personasPerTeam":2,"imported":true,')
  const again = await start(stateFile, { seed: 9, personasPerTeam: 2 })
  try {
    expect(again.running.stateFileConflict, 'the mark is kept by the snapshot a close writes').toBe(expected)
    expect((await again.call('/__mock/state')).text).toContain('"value":"after-import"')
    expect((await again.call('/__mock/reset', { method: 'POST' })).status).toBe(200)
    expect((await again.call('/__mock/state')).text).not.toContain('"imported"')
  } finally {
    await again.running.close()
  }
})
