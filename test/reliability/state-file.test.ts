import fc from 'fast-check'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { startCli } from './support/cli.js'
import { fuzzing, fuzzParameters, runsOf, timeoutFor } from './support/fuzz.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-state-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

// 150 personas per team: a state file of about 600 KB, so a write takes tens of milliseconds
// and a kill lands inside one often.
const KILLS = Math.min(runsOf(10), 100)
const PERSONAS = 150

/** A small seeded random source, so that CI kills at the same moments every run. */
function randomSource(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Batch {
  values: string[]
  sentAt: number
  ackAt?: number
}

/** Bulk adds one batch after another until told to stop; every batch is recorded with when it was sent and answered. */
async function hammer(url: string, fixtures: { dimensions: Array<{ id: string }>; tokens: { super_admin: string } }, name: string, batches: Batch[], stopped: () => boolean) {
  for (let n = 0; !stopped(); n++) {
    const batch: Batch = { values: Array.from({ length: 25 }, (_, i) => `${name}-${n}-${i}`), sentAt: performance.now() }
    batches.push(batch)
    try {
      const res = await fetch(`${url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ values: batch.values.map((value) => ({ value })) }),
      })
      if (res.status === 201) batch.ackAt = performance.now()
      await res.arrayBuffer()
    } catch {
      return // the server was killed: this batch stays in flight
    }
  }
}

it(`restarts into a complete earlier or later state after kill -9 at ${KILLS} random moments of a write`, async () => {
  const stateFile = join(folder, 'killed.json')
  const args = ['--port', '0', '--quiet', '--personas', String(PERSONAS), '--state-file', stateFile]
  const random = randomSource(fuzzing ? Date.now() : 7_010)
  const batches: Batch[] = []
  let previous = new Set<string>()
  let midWrite = 0
  let server = await startCli(args)
  try {
    for (let kill = 0; kill < KILLS; kill++) {
      const fixtures = await (await fetch(`${server.url}/__mock/fixtures`)).json()
      let killed = false
      const writers = Array.from({ length: 3 }, (_, w) => hammer(server.url, fixtures, `k${kill}w${w}`, batches, () => killed))
      await new Promise((resolve) => setTimeout(resolve, 15 + random() * 200))
      killed = true
      expect(await server.stop('SIGKILL')).toBeNull()
      await Promise.all(writers)

      // A temporary file left behind means the kill landed inside a write.
      if (readdirSync(folder).some((name) => name.startsWith('killed.json.') && name.endsWith('.tmp'))) midWrite++
      // The file on disk is whole: it parses, and it is a state file. (A kill before the first
      // write ever finished leaves none: the restart then starts from the seeded world, also whole.)
      if (existsSync(stateFile)) expect(JSON.parse(readFileSync(stateFile, 'utf8')).format).toBe('agent-console-mock/state')
      else expect(previous.size, 'a state file, once written, never disappears').toBe(0)
      server = await startCli(args)
      const state = await (await fetch(`${server.url}/__mock/state`)).json()
      const present = new Set((state.world.values as Array<{ value: string }>).map((v) => v.value).filter((value) => /^k\d+w\d+-/.test(value)))
      expect(state.world.personas, 'a whole seeded world').toHaveLength(2 * PERSONAS)
      const sent = new Set(batches.flatMap((b) => b.values))
      expect([...present].filter((value) => !sent.has(value)), 'only values that were sent').toEqual([])
      const kept = batches.filter((b) => b.values.some((value) => present.has(value)))
      expect(kept.filter((b) => !b.values.every((value) => present.has(value))), 'each batch whole or absent').toEqual([])
      // A snapshot of one process's world: if a batch is in it, so is every batch that process
      // answered before that one was sent. (Answers go out before their write, so a kill may
      // lose the last answered batches; a later process never brings them back.)
      for (const batch of kept) {
        const life = batch.values[0]!.split('w')[0]
        const missing = batches.filter((earlier) => earlier.values[0]!.startsWith(`${life}w`) && earlier.ackAt !== undefined && earlier.ackAt < batch.sentAt && !present.has(earlier.values[0]!))
        expect(missing.map((b) => b.values[0]), `answered before ${batch.values[0]} was sent`).toEqual([])
      }
      expect([...previous].filter((value) => !present.has(value)), 'nothing the last restart had is lost').toEqual([])
      expect(readdirSync(folder).filter((name) => name.endsWith('.tmp')), 'no temporary file left behind').toEqual([])
      previous = present
    }
    expect(previous.size, 'the kills let some writes through').toBeGreaterThan(0)
    console.info(`kill -9 test: ${KILLS} kills, ${midWrite} inside a write, ${previous.size} values kept, ${batches.length} batches sent`)
    expect(await server.stop()).toBe(0)
  } finally {
    // A failed check must not leave the server running.
    await server.stop('SIGKILL')
  }
}, 60_000 + KILLS * 5_000)

/** Starting the server on this file must fail with a message naming it, and leave it byte for byte. */
async function expectRefused(stateFile: string, message: RegExp) {
  const before = readFileSync(stateFile)
  await expect(startTestServer({ stateFile })).rejects.toThrow(message)
  expect(readFileSync(stateFile).equals(before), 'left untouched').toBe(true)
}

it('refuses a state file cut short anywhere, or with a byte changed, and leaves it untouched', async () => {
  const source = join(folder, 'source.json')
  const seeded = await startTestServer({ seed: 39, personasPerTeam: 2, stateFile: source })
  const dimension = seeded.sessions.primary.fixtures.dimensions[0]!.id
  await fetch(`${seeded.url}/v1/demographics/${dimension}/values/bulk`, { method: 'POST', headers: { authorization: `Bearer ${seeded.sessions.primary.fixtures.tokens.super_admin}`, 'content-type': 'application/json' }, body: '{"values":[{"value":"whole","metadata":{"__proto__":1}}]}' })
  await seeded.close()
  const whole = readFileSync(source, 'utf8')
  const damaged = join(folder, 'damaged.json')
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: whole.length - 1 }), fc.constantFrom('cut', 'flip'), async (at, how) => {
      const text = how === 'cut' ? whole.slice(0, at) : whole.slice(0, at) + String.fromCharCode(whole.charCodeAt(at) ^ 0x20) + whole.slice(at + 1)
      writeFileSync(damaged, text)
      const running = await startTestServer({ stateFile: damaged }).catch((error: Error) => error)
      if (running instanceof Error) {
        expect(running.message).toMatch(/damaged\.json is not a usable state file: .+\. It was left untouched/)
        expect(readFileSync(damaged, 'utf8')).toBe(text)
      } else {
        // A flip that still parses and fits (a letter's case in a name): a complete state all the same.
        await running.close()
        expect(JSON.parse(readFileSync(damaged, 'utf8')).format).toBe('agent-console-mock/state')
      }
    }),
    fuzzParameters(25, 7_011),
  )
}, timeoutFor(25, 200))

it.each([
  ['an empty file', '', /the state is not valid JSON/],
  ['random bytes', Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 7) % 256)), /the state is not valid JSON/],
  ['a JSON array', '[]', /this is not an agent-console-mock state/],
  ['another version', '{"format":"agent-console-mock/state","version":2}', /the state does not fit the schemas: version/],
  ['records that do not fit', '{"format":"agent-console-mock/state","version":1,"seed":1,"personasPerTeam":1,"world":{"teams":[{"id":1}],"personas":[],"dimensions":[],"values":[],"policies":[],"rules":[]}}', /the state does not fit the schemas: world\.teams\.0/],
  ['a JSON document of another program', '{"compilerOptions":{"strict":true}}', /this is not an agent-console-mock state/],
])('refuses %s with a clear error naming the file, and leaves it untouched', async (_, content, message) => {
  const stateFile = join(folder, `refused-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(stateFile, content)
  await expectRefused(stateFile, new RegExp(`${stateFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a usable state file: ${message.source}.*left untouched`))
})

it('refuses a directory, or a file in a folder that does not exist, with a message naming it', async () => {
  const directory = join(folder, 'a-directory')
  mkdirSync(directory)
  await expect(startTestServer({ stateFile: directory })).rejects.toThrow(`${directory} cannot be read as a state file: EISDIR`)
  const nowhere = join(folder, 'missing', 'state.json')
  await expect(startTestServer({ stateFile: nowhere })).rejects.toThrow(`${nowhere} cannot be written: ENOENT`)
  expect(existsSync(join(folder, 'missing'))).toBe(false)
})

it('removes the temporary file a killed writer left behind, and only that', async () => {
  const stateFile = join(folder, 'leftover.json')
  const dead = join(folder, 'leftover.json.999999.tmp')
  // The parent process (vitest) is alive: its temporary file may be a write under way.
  const alive = join(folder, `leftover.json.${process.ppid}.tmp`)
  const unrelated = join(folder, 'leftover.json.notes.tmp')
  for (const file of [dead, alive, unrelated]) writeFileSync(file, '{"half": ')
  const running = await startTestServer({ stateFile })
  await running.close()
  expect([existsSync(dead), existsSync(alive), existsSync(unrelated)]).toEqual([false, true, true])
  rmSync(alive)
  rmSync(unrelated)
})
