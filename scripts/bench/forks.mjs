// @ts-check
/**
 * Copy-on-write forks: what a new world costs once its seed and size were seeded.
 * For each size, in a child process started with `--expose-gc` (so heap figures are after full
 * collections): the time of `world.fork()` and of a whole new instance (`MockInstance.create`,
 * what a session, a reset or a Playwright test gets), medians and worst of many; the heap that
 * 100 idle instances hold; and what a fork pays for its first bulk add. Run by `npm run bench`,
 * or alone after a build: `node scripts/bench/forks.mjs [--sizes 1000,100000]`. Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const FORKS = 200
const IDLE = 100

/** Runs in the child: one size, printed as JSON. */
async function measureInChild(size) {
  const { MockInstance } = await import('../../dist/handlers/index.js')
  const gc = /** @type {() => void} */ (globalThis.gc)
  const heap = () => (gc(), gc(), process.memoryUsage().heapUsed)
  const options = { seed: 1, personasPerTeam: size }
  const first = await MockInstance.create(options) // seeds the shared base
  const forkMs = []
  for (let i = 0; i < FORKS; i++) {
    const start = performance.now()
    await first.world.fork()
    forkMs.push(performance.now() - start)
  }
  const instanceMs = []
  for (let i = 0; i < FORKS; i++) {
    const start = performance.now()
    await MockInstance.create(options)
    instanceMs.push(performance.now() - start)
  }
  const before = heap()
  const idle = []
  for (let i = 0; i < IDLE; i++) idle.push(await MockInstance.create(options))
  const idleBytes = (heap() - before) / IDLE
  const firstWriteMs = []
  for (const writer of idle.slice(0, 20)) {
    const start = performance.now()
    await writer.world.values.createAll([
      {
        id: '00000000-0000-4000-8000-000000000001',
        dimension_id: writer.fixtures.dimensions[0].id,
        value: 'bench',
        created_at: 0,
        display_name: 'bench',
        value_metadata: {},
        sort_order: 1,
      },
    ])
    writer.world.valuesByDimension()
    firstWriteMs.push(performance.now() - start)
  }
  const sorted = (numbers) => [...numbers].sort((a, b) => a - b)
  const median = (numbers) => sorted(numbers)[Math.floor(numbers.length / 2)]
  const round = (ms) => Math.round(ms * 1000) / 1000
  process.stdout.write(
    JSON.stringify({
      size,
      forkMedianMs: round(median(forkMs)),
      forkWorstMs: round(Math.max(...forkMs)),
      instanceMedianMs: round(median(instanceMs)),
      instanceWorstMs: round(Math.max(...instanceMs)),
      idleForkKb: Math.round(idleBytes / 1024),
      firstBulkAddMs: round(median(firstWriteMs)),
      idle: idle.length,
    }),
  )
}

/** Measures each size in its own process. */
export function measureForks(sizes = [1_000, 100_000]) {
  return sizes.map((size) =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', String(size)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ),
  )
}

export function forksTable(rows) {
  return [
    `| personas/team | world.fork() median / worst | new instance median / worst | heap per idle instance (of ${IDLE}) | a fork's first bulk add (median of 20) |`,
    '| ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.size} | ${r.forkMedianMs} / ${r.forkWorstMs} ms | ${r.instanceMedianMs} / ${r.instanceWorstMs} ms | ${r.idleForkKb} KB | ${r.firstBulkAddMs} ms |`,
    ),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const child = process.argv.indexOf('--child')
  if (child > 0) await measureInChild(Number(process.argv[child + 1]))
  else {
    const sizes = process.argv.includes('--sizes')
      ? process.argv[process.argv.indexOf('--sizes') + 1].split(',').map(Number)
      : undefined
    console.log(forksTable(measureForks(sizes)).join('\n'))
  }
}
