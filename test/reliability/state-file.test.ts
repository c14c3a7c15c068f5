import fc from 'fast-check'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { startCli } from './support/cli.js'
import { fuzzing, fuzzParameters, HANG_GUARD_MS, runsOf, timeoutFor } from './support/fuzz.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-state-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

// 150 personas per team: a state file of about 600 KB, so a write lasts long enough (a
// serialisation, an fsync) for the test to catch one under way and freeze it there.
const KILLS = Math.min(runsOf(10), 100)
const PERSONAS = 150

/** A small seeded random source, so that CI kills at the same points every run. */
function randomSource(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * One bulk add of 25 values. `sent` and `acked` are ticks of one logical clock the writers
 * share (not times): `a.acked < b.sent` means a's 201 had arrived before b was sent.
 */
/** What the test reads of an exported state. */
interface StateFile {
  world: { values: Array<{ value: string }>; personas: unknown[] }
}

interface Batch {
  values: string[]
  life: number
  sent: number
  acked?: number
}

let tick = 0

/** Bulk adds one batch after another until told to stop or the server dies; every batch is recorded as sent, and as acknowledged on a 201. */
async function hammer(
  url: string,
  fixtures: { dimensions: Array<{ id: string }>; tokens: { super_admin: string } },
  life: number,
  name: string,
  batches: Batch[],
  stopped: () => boolean,
) {
  for (let n = 0; !stopped(); n++) {
    const batch: Batch = { values: Array.from({ length: 25 }, (_, i) => `${name}-${n}-${i}`), life, sent: ++tick }
    batches.push(batch)
    try {
      const res = await fetch(`${url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ values: batch.values.map((value) => ({ value })) }),
      })
      await res.arrayBuffer()
      expect(res.status, `${batch.values[0]} answered`).toBe(201)
      batch.acked = ++tick
    } catch (error) {
      if ((error as Error).name === 'AssertionError') throw error
      return // the server was killed: this batch stays in flight
    }
  }
}

/** Polls until `found` gives a value (or true); a hang guard (never a bound on speed) fails the test after 20 s. */
async function until<T>(found: () => T | undefined | false, what: string): Promise<T> {
  const guard = Date.now() + HANG_GUARD_MS
  for (;;) {
    const value = found()
    if (value !== undefined && value !== false) return value
    if (Date.now() > guard) throw new Error(`hang guard: still waiting after ${HANG_GUARD_MS} ms until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
}

/**
 * The state file as it is on disk right now, checked whole (it parses, and it is a state
 * file), with the values the writers added; undefined while there is none. A reader opens
 * either the file before a rename or the one after, so every read must find a whole state.
 */
function readState(stateFile: string): { text: string; values: Set<string> } | undefined {
  let text: string
  try {
    text = readFileSync(stateFile, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  let state: { format?: string; world?: { values?: Array<{ value: string }> } }
  try {
    state = JSON.parse(text)
  } catch (error) {
    throw new Error(`the state file on disk is torn (${text.length} characters): ${(error as Error).message}`)
  }
  expect(state.format, 'the file on disk is a state file').toBe('agent-console-mock/state')
  return { text, values: new Set(state.world!.values!.map((v) => v.value).filter((value) => /^k\d+w\d+-/.test(value))) }
}

/** Waits until the state file on disk is a newer one than `text` (a write finished: a rename); that newer state. */
function nextState(stateFile: string, text: string | undefined, what: string) {
  let seen = ''
  return until(() => {
    // Cheap checks first; the content decides (each write adds values, so its file differs).
    const stat = statSync(stateFile, { bigint: true, throwIfNoEntry: false })
    const key = stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : ''
    if (key === seen) return undefined
    seen = key
    const state = readState(stateFile)
    return state !== undefined && state.text !== text ? state : undefined
  }, what)
}

type KillPoint = 'inside a write' | 'right after a write' | 'between acknowledgements' | 'at rest'
const KILL_POINTS: KillPoint[] = ['inside a write', 'right after a write', 'between acknowledgements', 'at rest']

it(
  `restarts after kill -9 at ${KILLS} points the test picks (some inside a write) into a whole state holding every write acknowledged before the last finished state write`,
  async () => {
    const stateFile = join(folder, 'killed.json')
    const args = ['--port', '0', '--quiet', '--personas', String(PERSONAS), '--state-file', stateFile]
    const random = randomSource(fuzzing ? Date.now() : 7_010)
    const batches: Batch[] = []
    let previous = new Set<string>()
    const landed: Record<KillPoint, number> = {
      'inside a write': 0,
      'right after a write': 0,
      'between acknowledgements': 0,
      'at rest': 0,
    }
    let frozenKills = 0
    let server = await startCli(args)
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const point = KILL_POINTS[kill % KILL_POINTS.length]!
        const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as Parameters<typeof hammer>[1]
        let stopped = false
        const writers = Array.from({ length: 3 }, (_, w) =>
          hammer(server.url, fixtures, kill, `k${kill}w${w}`, batches, () => stopped),
        )
        const ackedInLife = () => batches.filter((b) => b.life === kill && b.acked !== undefined)

        // 1. Some writes of this life acknowledged (how many varies from kill to kill).
        const target = 1 + Math.floor(random() * 8)
        await until(() => ackedInLife().length >= target, `${target} writes are acknowledged`)
        const acknowledged = ackedInLife()
        // 2. Two state writes finish after that: the second began after the first had ended, so
        //    after every acknowledged write was applied, and its state must hold them all.
        const first = await nextState(
          stateFile,
          readState(stateFile)?.text,
          'a state write finishes after the acknowledgements',
        )
        const covering = await nextState(stateFile, first.text, 'a second state write finishes')
        const notCovered = acknowledged.filter((b) => !b.values.every((value) => covering.values.has(value)))
        expect(
          notCovered.map((b) => b.values[0]),
          'a state write begun after these were acknowledged holds them',
        ).toEqual([])
        expect(
          [...previous].filter((value) => !covering.values.has(value)),
          'a state write keeps what the last restart had',
        ).toEqual([])

        // 3. Freeze the server at the kill point, and look at the disk as the kill will leave it.
        let frozen: boolean
        const temporary = `${stateFile}.${server.child.pid}.tmp`
        if (point === 'inside a write') {
          // A write is under way while its temporary file exists (from open to rename). Freeze as
          // soon as one shows; if the write ended before the freeze took hold, thaw and catch the next.
          for (;;) {
            await until(() => existsSync(temporary), 'a state write is under way')
            frozen = await server.freeze()
            if (!frozen || existsSync(temporary)) break
            server.thaw()
          }
        } else if (point === 'right after a write') {
          await nextState(stateFile, covering.text, 'one more state write finishes')
          frozen = await server.freeze()
        } else if (point === 'at rest') {
          // The writers stop; every batch they sent is acknowledged; the writes settle into a
          // file that holds them all. Freeze between writes (one more may follow, of the same
          // state: a change made while a write waited to open its file asks for another).
          stopped = true
          await Promise.all(writers)
          const all = batches.filter((b) => b.life === kill)
          expect(
            all.filter((b) => b.acked === undefined).map((b) => b.values[0]),
            'every batch answered 201',
          ).toEqual([])
          let settled = covering
          while (!all.every((b) => b.values.every((value) => settled.values.has(value))))
            settled = await nextState(stateFile, settled.text, 'the state file holds every acknowledged write')
          for (;;) {
            await until(() => !existsSync(temporary), 'no state write is under way')
            frozen = await server.freeze()
            if (!frozen || !existsSync(temporary)) break
            server.thaw()
          }
        } else {
          const more = ackedInLife().length + 1 + Math.floor(random() * 12)
          await until(() => ackedInLife().length >= more, `${more} writes are acknowledged`)
          frozen = await server.freeze()
        }
        // Frozen (every thread seen stopped), the files cannot change before the kill: this is what it leaves.
        const onDisk = readState(stateFile)!
        const insideWrite = existsSync(temporary)
        if (insideWrite) landed['inside a write']++
        else landed[point]++
        if (frozen) frozenKills++
        if (frozen && point === 'inside a write')
          expect(insideWrite, 'frozen with its temporary file there: inside a write').toBe(true)
        expect(
          [...covering.values].filter((value) => !onDisk.values.has(value)),
          'the file on disk only moves forward',
        ).toEqual([])
        expect(await server.stop('SIGKILL')).toBeNull()
        await Promise.all(writers)

        // 4. Restart from what the kill left.
        server = await startCli(args)
        const state = (await (await fetch(`${server.url}/__mock/state`)).json()) as StateFile
        const present = new Set(
          (state.world.values as Array<{ value: string }>)
            .map((v) => v.value)
            .filter((value) => /^k\d+w\d+-/.test(value)),
        )
        expect(state.world.personas, 'a whole seeded world').toHaveLength(2 * PERSONAS)
        // Frozen, nothing was written between the look at the disk and the kill: the restart holds exactly that state.
        if (frozen) expect(present, 'the restart holds the state file the kill left, exactly').toEqual(onDisk.values)
        // At rest, every write was acknowledged and written: the kill loses none of them.
        if (point === 'at rest')
          expect(present, 'at rest, a kill loses no acknowledged write').toEqual(
            new Set([...previous, ...batches.filter((b) => b.life === kill).flatMap((b) => b.values)]),
          )
        expect(
          acknowledged.filter((b) => !b.values.every((value) => present.has(value))).map((b) => b.values[0]),
          'every write acknowledged before the covering state write survives',
        ).toEqual([])
        expect(
          [...previous].filter((value) => !present.has(value)),
          'nothing the last restart had is lost',
        ).toEqual([])
        const sent = new Set(batches.flatMap((b) => b.values))
        expect(
          [...present].filter((value) => !sent.has(value)),
          'only values that were sent',
        ).toEqual([])
        const kept = batches.filter((b) => b.values.some((value) => present.has(value)))
        expect(
          kept.filter((b) => !b.values.every((value) => present.has(value))).map((b) => b.values[0]),
          'each batch whole or absent',
        ).toEqual([])
        // A snapshot of one process's world: if a batch is in it, so is every batch that process
        // answered before that one was sent. (Answers go out before their write, so a kill may
        // lose the last answered batches; a later process never brings them back.)
        for (const batch of kept) {
          const missing = batches.filter(
            (earlier) =>
              earlier.life === batch.life &&
              earlier.acked !== undefined &&
              earlier.acked < batch.sent &&
              !present.has(earlier.values[0]!),
          )
          expect(
            missing.map((b) => b.values[0]),
            `answered before ${batch.values[0]} was sent`,
          ).toEqual([])
        }
        expect(
          readdirSync(folder).filter((name) => name.endsWith('.tmp')),
          "the restart removed the killed write's temporary file",
        ).toEqual([])
        previous = present
      }
      expect(previous.size, 'the kills let writes through').toBeGreaterThanOrEqual(KILLS * 25)
      console.info(
        `kill -9 test: ${KILLS} kills (${frozenKills} on a frozen server), landed ${JSON.stringify(landed)}, ${previous.size} values kept, ${batches.length} batches sent`,
      )
      expect(await server.stop()).toBe(0)
    } finally {
      // A failed check must not leave the server running (SIGKILL also ends a frozen one).
      await server.stop('SIGKILL')
    }
  },
  60_000 + KILLS * 30_000,
)

/** Starting the server on this file must fail with a message naming it, and leave it byte for byte. */
async function expectRefused(stateFile: string, message: RegExp) {
  const before = readFileSync(stateFile)
  await expect(startTestServer({ stateFile })).rejects.toThrow(message)
  expect(readFileSync(stateFile).equals(before), 'left untouched').toBe(true)
}

it(
  'refuses a state file cut short anywhere, or with a byte changed, and leaves it untouched',
  async () => {
    const source = join(folder, 'source.json')
    const seeded = await startTestServer({ seed: 39, personasPerTeam: 2, stateFile: source })
    const dimension = seeded.sessions.primary.fixtures.dimensions[0]!.id
    await fetch(`${seeded.url}/v1/demographics/${dimension}/values/bulk`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seeded.sessions.primary.fixtures.tokens.super_admin}`,
        'content-type': 'application/json',
      },
      body: '{"values":[{"value":"whole","metadata":{"__proto__":1}}]}',
    })
    await seeded.close()
    const whole = readFileSync(source, 'utf8')
    const damaged = join(folder, 'damaged.json')
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: whole.length - 1 }), fc.constantFrom('cut', 'flip'), async (at, how) => {
        const text =
          how === 'cut'
            ? whole.slice(0, at)
            : whole.slice(0, at) + String.fromCharCode(whole.charCodeAt(at) ^ 0x20) + whole.slice(at + 1)
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
  },
  timeoutFor(25, 200),
)

it.each([
  ['an empty file', '', /the state is not valid JSON/],
  [
    'random bytes',
    Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 7) % 256)),
    /the state is not valid JSON/,
  ],
  ['a JSON array', '[]', /this is not an agent-console-mock state/],
  [
    'another version',
    '{"format":"agent-console-mock/state","version":2}',
    /the state does not fit the schemas: version/,
  ],
  [
    'records that do not fit',
    '{"format":"agent-console-mock/state","version":1,"seed":1,"personasPerTeam":1,"world":{"teams":[{"id":1}],"personas":[],"dimensions":[],"values":[],"policies":[],"rules":[]}}',
    /the state does not fit the schemas: world\.teams\.0/,
  ],
  [
    'a JSON document of another program',
    '{"compilerOptions":{"strict":true}}',
    /this is not an agent-console-mock state/,
  ],
])('refuses %s with a clear error naming the file, and leaves it untouched', async (_, content, message) => {
  const stateFile = join(folder, `refused-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(stateFile, content)
  await expectRefused(
    stateFile,
    new RegExp(
      `${stateFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a usable state file: ${message.source}.*left untouched`,
    ),
  )
})

it('refuses a directory, or a file in a folder that does not exist, with a message naming it', async () => {
  const directory = join(folder, 'a-directory')
  mkdirSync(directory)
  await expect(startTestServer({ stateFile: directory })).rejects.toThrow(
    `${directory} cannot be read as a state file: EISDIR`,
  )
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
