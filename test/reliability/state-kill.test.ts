import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli.js'
import { HANG_GUARD_MS, runsOf } from './support/fuzz.js'
import { readDisk } from './support/state-disk.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-kill-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

// The default 60 personas per team and the values the writers add: a snapshot of a few hundred KB
// and more, long enough to write to be caught at; compacted into whenever the log passes 256 KiB
// (about 50 batches), so that compactions come often.
const COMPACT_AT = { AGENT_CONSOLE_MOCK_COMPACT_AT: String(256 * 1024) }
// Each kill point once in CI (KILL_POINTS below); `npm run fuzz` goes round them twenty times.
const KILLS = Math.min(runsOf(5), 100)
const PERSONAS = 60
const WRITERS = 8
const OURS = /^k\d+w\d+-/

type Fixtures = { dimensions: Array<{ id: string }>; tokens: { super_admin: string } }
interface Batch {
  values: string[]
  acked: boolean
}

/** Bulk adds one batch of 25 after another until told to stop or the server dies; a 201 marks a batch acknowledged. */
async function hammer(url: string, fixtures: Fixtures, name: string, batches: Batch[], stopped: () => boolean) {
  for (let n = 0; !stopped(); n++) {
    const batch: Batch = { values: Array.from({ length: 25 }, (_, i) => `${name}-${n}-${i}`), acked: false }
    batches.push(batch)
    try {
      const res = await fetch(`${url}/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ values: batch.values.map((value) => ({ value })) }),
      })
      await res.arrayBuffer()
      expect(res.status, `${batch.values[0]} answered`).toBe(201)
      batch.acked = true
    } catch (error) {
      if ((error as Error).name === 'AssertionError') throw error
      return // the server was killed: this batch stays in flight
    }
  }
}

/** Polls until `found` holds; a hang guard (never a bound on speed) fails the test after 20 s. */
async function until(found: () => boolean, what: string): Promise<void> {
  const guard = Date.now() + HANG_GUARD_MS
  while (!found()) {
    if (Date.now() > guard) throw new Error(`hang guard: still waiting after ${HANG_GUARD_MS} ms until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
}

const fileKey = (path: string) => {
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false })
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : ''
}

type KillPoint =
  | 'inside a compaction'
  | 'right after a compaction'
  | 'while the log grows'
  | 'between answers'
  | 'at rest'
const KILL_POINTS: KillPoint[] = [
  'inside a compaction',
  'while the log grows',
  'right after a compaction',
  'between answers',
  'at rest',
]

/** Freezes the server once `point` is reached (for a compaction: while its temporary file is there, retried). */
async function freezeAt(point: KillPoint, server: CliServer, stateFile: string, stop: () => Promise<void>) {
  const temporary = `${stateFile}.${server.child.pid}.tmp`
  if (point === 'inside a compaction') {
    for (;;) {
      await until(() => existsSync(temporary), 'a compaction is under way')
      const frozen = await server.freeze()
      if (!frozen || existsSync(temporary)) return
      server.thaw()
    }
  }
  const file = point === 'right after a compaction' ? stateFile : `${stateFile}.log`
  const before = fileKey(file)
  if (point === 'at rest') await stop()
  else if (point !== 'between answers') await until(() => fileKey(file) !== before, `${file} changes`)
  await server.freeze()
}

it(
  `loses no acknowledged write to ${KILLS} kill -9s at points the test picks, ${WRITERS} writers at once`,
  async () => {
    const stateFile = join(folder, 'killed.json')
    const args = ['--port', '0', '--quiet', '--personas', String(PERSONAS), '--state-file', stateFile]
    const batches: Batch[] = []
    const landed: Record<string, number> = {}
    let previous = new Set<string>()
    let server = await startCli(args, COMPACT_AT)
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const point = KILL_POINTS[kill % KILL_POINTS.length]!
        const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as Fixtures
        let stopped = false
        const life: Batch[] = []
        const writers = Array.from({ length: WRITERS }, (_, w) =>
          hammer(server.url, fixtures, `k${kill}w${w}`, life, () => stopped),
        )
        await until(() => life.filter((b) => b.acked).length >= 10 + kill, 'some writes are acknowledged')
        await freezeAt(point, server, stateFile, async () => {
          stopped = true
          await Promise.all(writers)
        })
        // Frozen (every thread stopped): the disk is what the kill leaves. Every answered batch is on it.
        const onDisk = readDisk(stateFile, (value) => OURS.test(value))
        const acked = [...batches, ...life].filter((b) => b.acked)
        expect(
          acked.flatMap((b) => b.values).filter((v) => !onDisk.values.has(v)).length,
          'answered, not on disk',
        ).toBe(0)
        const compacting = existsSync(`${stateFile}.${server.child.pid}.tmp`)
        landed[compacting ? 'inside a compaction' : point] =
          (landed[compacting ? 'inside a compaction' : point] ?? 0) + 1
        expect(await server.stop('SIGKILL')).toBeNull()
        await Promise.all(writers)
        batches.push(...life)

        server = await startCli(args, COMPACT_AT)
        const state = (await (await fetch(`${server.url}/__mock/state`)).json()) as {
          world: { values: Array<{ value: string }>; personas: unknown[] }
        }
        const present = new Set(state.world.values.map((v) => v.value).filter((value) => OURS.test(value)))
        expect(state.world.personas, 'a whole seeded world').toHaveLength(2 * PERSONAS)
        const lost = batches
          .filter((b) => b.acked)
          .flatMap((b) => b.values)
          .filter((v) => !present.has(v))
        expect(lost, 'acknowledged values lost').toEqual([])
        const sent = new Set(batches.flatMap((b) => b.values))
        expect(
          [...present].filter((v) => !sent.has(v)),
          'only values that were sent',
        ).toEqual([])
        const partial = batches.filter(
          (b) => b.values.some((v) => present.has(v)) && !b.values.every((v) => present.has(v)),
        )
        expect(
          partial.map((b) => b.values[0]),
          'each batch whole or absent',
        ).toEqual([])
        if (point === 'at rest')
          expect(present, 'at rest (nothing in flight), exactly what was kept and sent').toEqual(
            new Set([...previous, ...life.flatMap((b) => b.values)]),
          )
        expect(
          [...previous].filter((v) => !present.has(v)),
          'nothing an earlier restart had is lost',
        ).toEqual([])
        expect(
          readdirSync(folder).filter((name) => /\.(tmp|stale)$/.test(name)),
          'no leftovers',
        ).toEqual([])
        previous = present
      }
      const acked = batches.filter((b) => b.acked)
      console.info(
        `kill -9 test: ${KILLS} kills, landed ${JSON.stringify(landed)}; ${acked.length} of ${batches.length} ` +
          `batches (${acked.length * 25} values) acknowledged, 0 lost; ${previous.size} values kept`,
      )
      expect(await server.stop()).toBe(0)
    } finally {
      await server.stop('SIGKILL') // a failed check must not leave the server running (frozen or not)
    }
  },
  60_000 + KILLS * 30_000,
)
