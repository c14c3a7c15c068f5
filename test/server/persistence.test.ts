import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { bulkAdd, http, startTestServer, valuesOf } from '../support/server.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-state-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The state file and its log as they are on disk now, copied as a kill would leave them (the server goes on). */
function copyAsKilled(stateFile: string, name: string): string {
  mkdirSync(join(folder, name))
  const copy = join(folder, name, 'state.json')
  for (const suffix of ['', '.log']) if (existsSync(stateFile + suffix)) copyFileSync(stateFile + suffix, copy + suffix)
  return copy
}

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
    // Removing the state file alone would leave a log that names it, which refuses the start in turn.
    await expect(startTestServer({ stateFile })).rejects.toThrow(
      `remove it and ${stateFile}.log to start from the seeded world`,
    )
    expect(readFileSync(stateFile, 'utf8')).toBe(content)
  }
})

it('starts from the seeded world without a state file, and writes it at the first change only', async () => {
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
  expect(readFileSync(`${stateFile}.lock`, 'utf8'), 'a clean stop gives the lock up: it names nobody').toBe('')

  const writer = await startTestServer({ seed: 16, stateFile })
  expect((await bulkAdd(writer, ['first change'])).status).toBe(201)
  expect(existsSync(stateFile), 'the first change is answered once the state file holds it').toBe(true)
  await writer.close()
  expect(
    JSON.parse(readFileSync(stateFile, 'utf8')).world.values.some((v: { value: string }) => v.value === 'first change'),
  ).toBe(true)
})

it('answers a change only once it is on disk: the files as they are right after each answer hold it', async () => {
  const stateFile = join(folder, 'acknowledged.json')
  const running = await startTestServer({ seed: 17, personasPerTeam: 2, stateFile })
  try {
    const copies: Array<[string, string[]]> = []
    for (let round = 0; round < 4; round++) {
      // Sequential answers, then 20 at once (they share flushes): each answer is checked against the disk.
      const batches = round < 2 ? [[`one-${round}`]] : Array.from({ length: 20 }, (_, i) => [`r${round}-${i}`])
      const answers = await Promise.all(batches.map((values) => bulkAdd(running, values)))
      expect(answers.map((answer) => answer.status)).toEqual(batches.map(() => 201))
      copies.push([copyAsKilled(stateFile, `acknowledged-${round}`), batches.flat()])
    }
    for (const [copy, values] of copies) {
      const restarted = await startTestServer({ stateFile: copy })
      const present = valuesOf(restarted)
      await restarted.close()
      expect(values.filter((value) => !present.has(value))).toEqual([])
    }
  } finally {
    await running.close()
  }
})

it('writes a reset or an import as a whole snapshot, and compacts a long log into one', async () => {
  const stateFile = join(folder, 'compacted.json')
  const running = await startTestServer({ seed: 18, personasPerTeam: 2, stateFile })
  const logSize = () => statSync(`${stateFile}.log`).size
  try {
    expect((await bulkAdd(running, ['before the reset'])).status).toBe(201)
    expect((await http(running)('/__mock/reset', { method: 'POST', body: '{"seed": 19}' })).status).toBe(200)
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).seed, 'the reset is in the state file').toBe(19)
    const empty = logSize()
    expect((await bulkAdd(running, ['after the reset'])).status).toBe(201)
    expect(logSize(), 'a bulk add goes to the log').toBeGreaterThan(empty)
    const exported = await http(running)('/__mock/state')
    expect((await http(running)('/__mock/state', { method: 'PUT', body: exported.text })).status).toBe(200)
    expect(logSize(), 'an import is a snapshot: the log starts over').toBe(empty)
    // 1,000 values of ~400 bytes a request: past 1 MiB (and the small snapshot) after three.
    const snapshot = statSync(stateFile).mtimeMs
    const sizes = [logSize()]
    for (let n = 0; n < 5; n++) {
      const values = Array.from({ length: 1000 }, (_, i) => `bulk-${n}-${i}-${'x'.repeat(100)}`)
      expect((await bulkAdd(running, values)).status).toBe(201)
      sizes.push(logSize())
    }
    expect(statSync(stateFile).mtimeMs, 'a compaction wrote a new snapshot').not.toBe(snapshot)
    expect(
      sizes.some((size, n) => size < sizes[n - 1]!),
      `and emptied the log (sizes ${sizes})`,
    ).toBe(true)
    const copy = copyAsKilled(stateFile, 'compacted')
    const restarted = await startTestServer({ stateFile: copy })
    expect(valuesOf(restarted)).toEqual(valuesOf(running))
    await restarted.close()
  } finally {
    await running.close()
  }
})

it('never gives a new record the id of one deleted before a restart', async () => {
  const stateFile = join(folder, 'ids.json')
  const create = async (server: Awaited<ReturnType<typeof startTestServer>>, name: string) =>
    (await http(server)('/__mock/records/personas', { method: 'POST', json: { name } })).json.id as string
  const first = await startTestServer({ seed: 16, personasPerTeam: 2, stateFile })
  const ids = [await create(first, 'a'), await create(first, 'b'), await create(first, 'c')]
  expect((await http(first)(`/__mock/records/personas/${ids[0]}`, { method: 'DELETE' })).status).toBe(204)
  await first.close()
  // One created and deleted after a restart leaves the state as it was: the next start must not draw it again.
  const second = await startTestServer({ seed: 16, personasPerTeam: 2, stateFile })
  ids.push(await create(second, 'gone'))
  expect((await http(second)(`/__mock/records/personas/${ids.at(-1)}`, { method: 'DELETE' })).status).toBe(204)
  await second.close()
  for (let restart = 0; restart < 3; restart++) {
    const again = await startTestServer({ seed: 16, personasPerTeam: 2, stateFile })
    const next = await create(again, `after restart ${restart}`)
    expect(ids, `restart ${restart}`).not.toContain(next)
    ids.push(next)
    await again.close()
  }
})
