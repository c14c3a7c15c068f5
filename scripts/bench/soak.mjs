// @ts-check
/**
 * `npm run soak`: the standalone mock under mixed load for a minute, at the highest rate it
 * sustains. An unthrottled warm-up, then an unthrottled probe measures the highest rate; a
 * short settle and the soak run at 85% of it (a rate the server keeps up with, so latency
 * stays flat instead of queueing). The mix: persona lists with random filters and pages, rule
 * pages, bulk adds into session worlds and into the default world, session resets, journal
 * reads. Every request is valid, so every answer must be a 2xx.
 *
 * Passes when: no error answer and no connection error, the server never crashed nor logged
 * an error, and its RSS at the end is within 10% of its RSS after the warm-up. Prints the
 * figures and writes scripts/bench/soak-results.json; exits 1 on a failed check. Not part of `npm test`.
 *
 * Options: --seconds 60, --warmup 15, --probe 5, --settle 5, --connections 10, --personas 1000.
 */
import { spawn, execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import autocannon from 'autocannon'

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(process.argv[at + 1])
}
const SECONDS = option('seconds', 60)
const WARMUP = option('warmup', 15)
const PROBE = option('probe', 5)
const SETTLE = option('settle', 5)
const CONNECTIONS = option('connections', 10)
const PERSONAS = option('personas', 1000)
const SESSIONS = 16
const RSS_TOLERANCE = 0.1

/** Resident set size of a process in MB (Linux /proc, else ps). */
function rssMb(pid) {
  if (existsSync(`/proc/${pid}/status`))
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024
}

/** Starts the CLI and resolves with its URL once it listens; anything it writes to stderr is kept. */
function startMock() {
  const child = spawn(
    process.execPath,
    [
      'dist/server/cli.js',
      '--port',
      '0',
      '--quiet',
      '--personas',
      String(PERSONAS),
      '--sessions',
      String(SESSIONS + 4),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk
      const match = /listening on (http:\/\/\S+)/.exec(stdout)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}:\n${stdout}${stderr}`)))
  })
  return { child, url, stderr: () => stderr }
}

const random = (max) => Math.floor(Math.random() * max)
const pick = (list) => list[random(list.length)]
const WORDS = ['an', 'er', 'ENGINEER', 'support', 'zoë', 'lead', 'ma', 'data', 'x', 'ana']
const INTENTS = ['benign', 'curious', 'adversarial', 'malicious']
let unique = 0

/** One request of the mix, as autocannon sends it. */
function mixedRequest(fixtures) {
  const reader = { authorization: `Bearer ${fixtures.tokens.team_reader}` }
  const admin = { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' }
  const session = () => ({ 'x-mock-session': `soak-${random(SESSIONS)}` })
  const bulkPath = `/v1/demographics/${fixtures.dimensions[random(fixtures.dimensions.length)].id}/values/bulk`
  const roll = random(100)
  if (roll < 45) {
    const filters = [
      ...INTENTS.filter(() => Math.random() < 0.3).map((intent) => `intents=${intent}`),
      ...(Math.random() < 0.3 ? [`is_preset=${Math.random() < 0.5}`] : []),
      ...(Math.random() < 0.4 ? [`search=${encodeURIComponent(pick(WORDS))}`] : []),
      `limit=${1 + random(100)}`,
      `offset=${random(PERSONAS)}`,
    ]
    return { method: 'GET', path: `/v1/personas/?${filters.join('&')}`, headers: reader }
  }
  if (roll < 65)
    return {
      method: 'GET',
      path: `/v1/policies/${fixtures.policies[random(2)].id}/rules?limit=${1 + random(300)}&offset=${random(280)}`,
      headers: reader,
    }
  if (roll < 75) {
    // New values into a session world; the session resets below keep those worlds bounded.
    const values = Array.from({ length: 10 }, () => ({
      value: `soak-${++unique}`,
      metadata: { n: unique, tags: ['a', 'b'] },
    }))
    return { method: 'POST', path: bulkPath, headers: { ...admin, ...session() }, body: JSON.stringify({ values }) }
  }
  if (roll < 85) {
    // The default world: a bounded pool of values, so after a while these are skipped duplicates.
    const values = Array.from({ length: 10 }, () => ({ value: `pool-${random(500)}` }))
    return { method: 'POST', path: bulkPath, headers: admin, body: JSON.stringify({ values }) }
  }
  // What a test worker does between tests: its session back to a small seeded world.
  if (roll < 86)
    return {
      method: 'POST',
      path: '/__mock/reset',
      headers: { ...session(), 'content-type': 'application/json' },
      body: '{"personas":20}',
    }
  if (roll < 92) return { method: 'GET', path: '/__mock/requests?limit=20', headers: {} }
  return {
    method: 'GET',
    path: `/v1/personas/?team_id=${fixtures.teams[1].id}&limit=20`,
    headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, ...session() },
  }
}

/** Runs the mix for `seconds`, at `rate` requests per second overall (unthrottled when undefined), sampling RSS. */
async function load(url, fixtures, seconds, rate, pid) {
  const samples = []
  const sampler = setInterval(() => samples.push(Math.round(rssMb(pid))), 5_000)
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, ...mixedRequest(fixtures) }) }],
  })
  clearInterval(sampler)
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, Number(stat.count)]),
    ),
    rssSamples: samples,
  }
}

const mock = startMock()
const url = await mock.url
const pid = mock.child.pid ?? 0
const fixtures = await (await fetch(`${url}/__mock/fixtures`)).json()
const rssAtStart = Math.round(rssMb(pid))

// Warm-up: unthrottled (every session world gets built, the JIT settles), then a short run at
// the soak rate, after which the RSS baseline is taken.
console.error(`warming up unthrottled for ${WARMUP} s...`)
const warmup = await load(url, fixtures, WARMUP, undefined, pid)
console.error(
  `  ${warmup.rps} req/s; probing the highest rate (${PROBE} s, ${CONNECTIONS} connections, unthrottled)...`,
)
const probe = await load(url, fixtures, PROBE, undefined, pid)
const rate = Math.max(50, Math.floor(probe.rps * 0.85))
console.error(`  ${probe.rps} req/s; settling at ${rate} req/s for ${SETTLE} s...`)
const settle = await load(url, fixtures, SETTLE, rate, pid)
const rssAfterWarmup = Math.round(rssMb(pid))
console.error(`  RSS after warm-up ${rssAfterWarmup} MB; soaking at ${rate} req/s for ${SECONDS} s...`)
const soak = await load(url, fixtures, SECONDS, rate, pid)
const alive = mock.child.exitCode === null && mock.child.signalCode === null
const rssAtEnd = alive ? Math.round(rssMb(pid)) : 0
const health = alive ? (await fetch(`${url}/__mock/health`)).status : 0
mock.child.kill('SIGTERM')
await new Promise((resolve) => mock.child.once('exit', resolve))

const growth = (rssAtEnd - rssAfterWarmup) / rssAfterWarmup
const answered = [warmup, probe, settle, soak]
const checks = [
  [
    'no error answer (non-2xx) in any phase',
    answered.every((r) => r.non2xx === 0),
    answered.map((r) => r.non2xx).join(' / '),
  ],
  [
    'no connection error or timeout',
    answered.every((r) => r.errors === 0 && r.timeouts === 0),
    answered.map((r) => `${r.errors}+${r.timeouts}`).join(' / '),
  ],
  ['the server never crashed and still answers', alive && health === 200, alive ? `health ${health}` : 'exited'],
  ['the server logged no error', mock.stderr().trim() === '', mock.stderr().trim().slice(0, 200) || 'none'],
  ['sustained the rate (>= 95% of it)', soak.rps >= rate * 0.95, `${soak.rps} of ${rate} req/s`],
  [
    `RSS at the end within ${RSS_TOLERANCE * 100}% of RSS after warm-up`,
    Math.abs(growth) <= RSS_TOLERANCE,
    `${rssAfterWarmup} -> ${rssAtEnd} MB (${(growth * 100).toFixed(1)}%)`,
  ],
]

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`
const lines = [
  `agent-console-mock soak: ${SECONDS} s at ${rate} req/s (85% of the ${probe.rps} req/s probe), ${CONNECTIONS} connections, ${PERSONAS} personas per team, ${SESSIONS} sessions, on ${machine}`,
  '',
  '| phase | seconds | requests | req/s | p50 ms | p99 ms | max ms | non-2xx | errors |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...[
    ['warm-up (unthrottled)', WARMUP, warmup],
    ['probe (unthrottled)', PROBE, probe],
    ['settle', SETTLE, settle],
    ['soak', SECONDS, soak],
  ].map(
    ([name, s, r]) =>
      `| ${name} | ${s} | ${r.requests} | ${r.rps} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.non2xx} | ${r.errors + r.timeouts} |`,
  ),
  '',
  `Statuses during the soak: ${Object.entries(soak.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ')}`,
  `RSS: ${rssAtStart} MB at start, ${rssAfterWarmup} MB after warm-up, ${rssAtEnd} MB at the end; every 5 s of the soak: ${soak.rssSamples.join(', ')} MB`,
  '',
  '| check | passed | measured |',
  '| --- | --- | --- |',
  ...checks.map(([name, passed, value]) => `| ${name} | ${passed ? 'yes' : 'NO'} | ${value} |`),
]
console.log(lines.join('\n'))
writeFileSync(
  'scripts/bench/soak-results.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine,
      seconds: SECONDS,
      warmup: WARMUP,
      connections: CONNECTIONS,
      personas: PERSONAS,
      rate,
      warmupRun: warmup,
      probe,
      settle,
      soak,
      rss: { atStart: rssAtStart, afterWarmup: rssAfterWarmup, atEnd: rssAtEnd },
      checks: checks.map(([name, passed, value]) => ({ name, passed, value })),
    },
    null,
    2,
  ),
)
process.exitCode = checks.every(([, passed]) => passed) ? 0 : 1
