import { mkdtempSync, rmSync } from 'node:fs'
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
