// @ts-check
/**
 * `npm run bench`: the standalone mock against a bare Express baseline, side by side on
 * 127.0.0.1, with the same load generator (autocannon) and settings, alternating, several
 * rounds, medians reported. Also: requests per second in-process (setupServer + fetch), time
 * from start to the first answered request, and RSS after load, per dataset size; bulk adds with
 * `--state-file` (state-file.mjs); health while a large world is seeded, exported, imported (stalls.mjs).
 * `--quick` measures 1,000 and 10,000 personas with rounds of one second, for a first look;
 * `--sizes 1000,100000` picks the sizes (personas per team) to measure; `--platform` measures
 * only what compares platforms (msw 2 / Node 20, msw 3 / Node 22): the persona list on 10,000
 * against bare Express and the Express + getResponse ceiling, and in-process (in-process.mjs).
 * Every measurement follows an untimed second of the same workload on each server (warm-up).
 * Prints a table and writes scripts/bench/results.json. Not part of `npm test`.
 */
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { inProcessTable, measureInProcess, platform } from './in-process.mjs'
import { measureStalls, stallsTable } from './stalls.mjs'
import { forksTable, measureForks } from './forks.mjs'
import { measureStateFile, stateFileTable } from './state-file.mjs'

const quick = process.argv.includes('--quick')
const platformOnly = process.argv.includes('--platform')
const sizesArgument = process.argv[process.argv.indexOf('--sizes') + 1]
const SIZES = process.argv.includes('--sizes')
  ? parseSizes(sizesArgument)
  : platformOnly
    ? [10_000]
    : quick
      ? [1_000, 10_000]
      : [1_000, 10_000, 100_000]
const ROUNDS = quick ? 1 : 3
// autocannon measures whole seconds.
const SECONDS = quick ? 1 : 5
const CONNECTIONS = 10

/** `--sizes 1000,100000`: personas per team to measure, in order. */
function parseSizes(text) {
  const sizes = String(text ?? '')
    .split(',')
    .map(Number)
  if (!text || sizes.some((size) => !Number.isInteger(size) || size < 10 || size > 100_000)) {
    console.error(
      '--sizes takes personas per team, separated by commas, each from 10 to 100000: e.g. --sizes 1000,100000',
    )
    process.exit(2)
  }
  return sizes
}

/** Starts a server process and waits for the URL it prints. */
function startProcess(args, pattern) {
  const started = performance.now()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      const match = pattern.exec(output)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)))
  })
  return {
    child,
    started,
    url,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  }
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
const random = (max) => Math.floor(Math.random() * Math.max(1, max))
let unique = 0

/** The workloads, as autocannon requests for the mock (`auth`) or the baseline (`team_id` in the query). */
function workloads(size, fixtures, target) {
  const team = fixtures.teams[0].id
  const scope = target === 'baseline' ? `&team_id=${team}` : ''
  const token = (role) => (target === 'baseline' ? {} : { authorization: `Bearer ${fixtures.tokens[role]}` })
  const get = (path, role) => ({
    method: 'GET',
    headers: token(role),
    setupRequest: (req) => ({ ...req, path: path() }),
  })
  return {
    'personas (limit 10, random offset)': get(
      () => `/v1/personas/?limit=10&offset=${random(size - 10)}${scope}`,
      'team_reader',
    ),
    'personas + intents + search': get(
      () => `/v1/personas/?intents=curious&intents=malicious&search=an&limit=10&offset=${random(100)}${scope}`,
      'team_reader',
    ),
    'rules (limit 100)': get(
      () => `/v1/policies/${fixtures.policies[0].id}/rules?limit=100&offset=${random(160)}`,
      'team_reader',
    ),
    'bulk add (100 values)': {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...token('super_admin') },
      setupRequest: (req) => ({
        ...req,
        path: `/v1/demographics/${fixtures.dimensions[0].id}/values/bulk`,
        body: JSON.stringify({ values: Array.from({ length: 100 }, () => ({ value: `bench-${++unique}` })) }),
      }),
    },
  }
}

async function load(url, request, seconds = SECONDS) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [request] })
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0

async function measureSize(size) {
  const mock = startProcess(
    ['dist/server/cli.js', '--port', '0', '--personas', String(size), '--quiet'],
    /listening on (http:\/\/\S+)/,
  )
  const mockUrl = await mock.url
  const fixtures = await (await fetch(`${mockUrl}/__mock/fixtures`)).json()
  const first = await fetch(`${mockUrl}/v1/personas/`, {
    headers: { authorization: `Bearer ${fixtures.tokens.team_reader}` },
  })
  const firstAnswerMs = performance.now() - mock.started
  if (first.status !== 200) throw new Error(`the mock answered ${first.status}`)
  const baseline = startProcess(['scripts/bench/baseline-server.mjs', String(size)], /READY (http:\/\/\S+)/)
  const baselineUrl = await baseline.url
  const rows = []
  let rssAfterReads = 0
  const names = Object.keys(workloads(size, fixtures, 'mock'))
  // The persona list comes first: the one workload `--platform` measures.
  for (const name of platformOnly ? names.slice(0, 1) : names) {
    // Bulk adds store what they write: measure memory after the read workloads, before them.
    if (name.startsWith('bulk')) rssAfterReads = Math.round(rssMb(mock.child.pid))
    const runs = { mock: [], baseline: [] }
    // An untimed second for each server first: both are measured warm (JIT-compiled), not
    // on their first requests.
    for (const target of ['mock', 'baseline'])
      await load(target === 'mock' ? mockUrl : baselineUrl, workloads(size, fixtures, target)[name], 1)
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['mock', 'baseline'] : ['baseline', 'mock']
      for (const target of order)
        runs[target].push(
          await load(target === 'mock' ? mockUrl : baselineUrl, workloads(size, fixtures, target)[name]),
        )
    }
    const summary = (list) => ({
      rps: Math.round(median(list.map((r) => r.rps))),
      p99: median(list.map((r) => r.p99)),
      non2xx: list.reduce((n, r) => n + r.non2xx, 0),
      errors: list.reduce((n, r) => n + r.errors, 0),
    })
    rows.push({ size, workload: name, mock: summary(runs.mock), baseline: summary(runs.baseline) })
    console.error(`  ${size} ${name}: mock ${rows.at(-1).mock.rps} req/s, baseline ${rows.at(-1).baseline.rps} req/s`)
  }
  const rssAfterWrites = Math.round(rssMb(mock.child.pid))
  // `--platform` measures no bulk adds.
  rssAfterReads ||= rssAfterWrites
  const ceiling = await measureCeiling(mockUrl, fixtures, size)
  await Promise.all([mock.stop(), baseline.stop()])
  return {
    size,
    firstAnswerMs: Math.round(firstAnswerMs),
    rssAfterLoadMb: rssAfterReads,
    rssAfterWritesMb: rssAfterWrites,
    rows,
    ceiling,
  }
}

/**
 * The persona list on Express + msw's `getResponse` answering a page written in advance (one
 * the mock answered), alternating with the mock: the most that stack gives.
 */
async function measureCeiling(mockUrl, fixtures, size) {
  const request = workloads(size, fixtures, 'mock')['personas (limit 10, random offset)']
  const sample = await fetch(`${mockUrl}/v1/personas/?limit=10`, { headers: request.headers })
  const file = join(tmpdir(), `agent-console-mock-bench-page-${process.pid}.json`)
  writeFileSync(file, Buffer.from(await sample.arrayBuffer()))
  const ceiling = startProcess(['scripts/bench/ceiling-server.mjs', file], /READY (http:\/\/\S+)/)
  const ceilingUrl = await ceiling.url
  const runs = { mock: [], ceiling: [] }
  for (const url of [mockUrl, ceilingUrl]) await load(url, request, 1)
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['mock', 'ceiling'] : ['ceiling', 'mock']
    for (const target of order) runs[target].push((await load(target === 'mock' ? mockUrl : ceilingUrl, request)).rps)
  }
  await ceiling.stop()
  return { mock: Math.round(median(runs.mock)), ceiling: Math.round(median(runs.ceiling)) }
}

const sizes = []
for (const size of SIZES) {
  console.error(`measuring ${size} personas per team...`)
  sizes.push(await measureSize(size))
}
console.error('measuring in-process...')
const inProcess = await measureInProcess({ size: 10_000, rounds: ROUNDS, seconds: SECONDS })
const rest = platformOnly ? undefined : await measureTheRest()

/** Bulk adds with --state-file, health while large worlds are built, forks: all but `--platform`. */
async function measureTheRest() {
  console.error('measuring bulk adds with --state-file...')
  const stateFile = await measureStateFile({ rounds: ROUNDS, seconds: SECONDS })
  console.error('measuring health while a world of 100,000 personas per team is seeded, exported, imported...')
  const stalls = await measureStalls({ personas: 100_000, rounds: ROUNDS })
  const worstHealthP99 = Math.max(
    ...stalls.rounds.flatMap((r) => [r.seeding, r.exporting].map((step) => step.health.p99)),
  )
  console.error('measuring forks...')
  return { stateFile, stalls, worstHealthP99, forks: measureForks() }
}

const personaRow = (size) => sizes.find((s) => s.size === size)?.rows[0]
const at10k = personaRow(10_000)
const smallest = personaRow(SIZES[0])
const largest = personaRow(SIZES.at(-1))
const startLargest = sizes.at(-1)
const ceiling10k = sizes.find((s) => s.size === 10_000)?.ceiling
const percent = (part, whole) => `${Math.round((part / whole) * 100)}%`
const targets = [
  [
    'persona list on 10,000: >= 90% of the baseline',
    at10k && at10k.baseline.rps > 0 ? at10k.mock.rps / at10k.baseline.rps >= 0.9 : false,
    // A baseline that answered nothing (it failed under load) is no measure of the mock.
    at10k?.baseline.rps
      ? percent(at10k.mock.rps, at10k.baseline.rps)
      : `baseline: ${at10k?.baseline.errors ?? '-'} errors`,
  ],
  [
    'persona list on 10,000: >= 90% of the Express + getResponse ceiling',
    ceiling10k ? ceiling10k.mock / ceiling10k.ceiling >= 0.9 : false,
    ceiling10k ? percent(ceiling10k.mock, ceiling10k.ceiling) : '-',
  ],
  ['persona list on 10,000: p99 <= 20 ms', at10k ? at10k.mock.p99 <= 20 : false, at10k ? `${at10k.mock.p99} ms` : '-'],
  [
    'in-process: >= 90% of a bare setupServer handler',
    inProcess.ratio >= 0.9,
    `${Math.round(inProcess.ratio * 100)}% (${inProcess.mock.rps} vs ${inProcess.anchor.rps} req/s)`,
  ],
  ...(rest ? restTargets(rest) : []),
]

/** The targets of all but `--platform`. */
function restTargets({ stateFile, worstHealthP99, forks }) {
  return [
    [
      `persona list falls <= 1.5x from ${SIZES[0]} to ${SIZES.at(-1)}`,
      smallest && largest ? smallest.mock.rps / largest.mock.rps <= 1.5 : false,
      smallest && largest ? `${(smallest.mock.rps / largest.mock.rps).toFixed(2)}x` : '-',
    ],
    [
      `start with ${startLargest.size}: first answer <= 3 s`,
      startLargest.firstAnswerMs <= 3000,
      `${startLargest.firstAnswerMs} ms`,
    ],
    [
      `RSS after read load with ${startLargest.size} <= 400 MB`,
      startLargest.rssAfterLoadMb <= 400,
      `${startLargest.rssAfterLoadMb} MB`,
    ],
    [
      'bulk add with --state-file: >= 50% of in memory',
      stateFile.stateFile.rps / stateFile.memory.rps >= 0.5,
      `${percent(stateFile.stateFile.rps, stateFile.memory.rps)} (${stateFile.stateFile.rps} vs ${stateFile.memory.rps} req/s)`,
    ],
    [
      'health p99 <= 100 ms while a 100,000-persona session is seeded or /__mock/state exported',
      worstHealthP99 <= 100,
      `${worstHealthP99} ms`,
    ],
    ...forks.flatMap((f) => [
      [
        `fork of ${f.size} personas/team: <= 2 ms (median new instance)`,
        f.instanceMedianMs <= 2,
        `${f.instanceMedianMs} ms (worst ${f.instanceWorstMs} ms)`,
      ],
      [`idle fork of ${f.size} personas/team: <= 100 KB`, f.idleForkKb <= 100, `${f.idleForkKb} KB`],
    ]),
  ]
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${platform()}`
const lines = [
  `agent-console-mock benchmark (${platformOnly ? 'platform' : quick ? 'quick' : 'full'}: ${ROUNDS} round(s) of ${SECONDS} s, ${CONNECTIONS} connections, medians) on ${machine}`,
  '',
  '| personas/team | workload | mock req/s | mock p99 ms | baseline req/s | baseline p99 ms | mock/baseline | non-2xx / errors |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...sizes.flatMap((s) =>
    s.rows.map(
      (r) =>
        `| ${r.size} | ${r.workload} | ${r.mock.rps} | ${r.mock.p99} | ${r.baseline.rps} | ${r.baseline.p99} | ${r.baseline.rps ? `${Math.round((r.mock.rps / r.baseline.rps) * 100)}%` : '-'} | ${r.mock.non2xx} / ${r.mock.errors} |`,
    ),
  ),
  '',
  '| personas/team | start to first answer | RSS after read load | RSS after the bulk adds too |',
  '| ---: | ---: | ---: | ---: |',
  ...sizes.map((s) => `| ${s.size} | ${s.firstAnswerMs} ms | ${s.rssAfterLoadMb} MB | ${s.rssAfterWritesMb} MB |`),
  '',
  '| personas/team | persona list: mock req/s | Express + getResponse ceiling req/s | mock/ceiling |',
  '| ---: | ---: | ---: | ---: |',
  ...sizes.map(
    (s) => `| ${s.size} | ${s.ceiling.mock} | ${s.ceiling.ceiling} | ${percent(s.ceiling.mock, s.ceiling.ceiling)} |`,
  ),
  '',
  ...inProcessTable(inProcess),
  '',
  ...(rest
    ? [...stateFileTable(rest.stateFile), '', ...stallsTable(rest.stalls), '', ...forksTable(rest.forks), '']
    : []),
  '| target | met | measured |',
  '| --- | --- | --- |',
  ...targets.map(([name, met, value]) => `| ${name} | ${met ? 'yes' : 'NO'} | ${value} |`),
]
console.log(lines.join('\n'))
writeFileSync(
  'scripts/bench/results.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine,
      quick,
      rounds: ROUNDS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      sizes,
      inProcess,
      ...(rest && { stateFile: rest.stateFile, stalls: rest.stalls, forks: rest.forks }),
      targets: targets.map(([name, met, value]) => ({ name, met, value })),
    },
    null,
    2,
  ),
)
