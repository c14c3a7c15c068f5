// @ts-check
/**
 * Health answers while a large world is being built, exported or imported:
 * the CLI in a child process, one client asking `GET /__mock/health` again as soon as it is answered
 * (one request at a time, a new connection each), and the latency of each answer while
 * - a session of 100,000 personas per team is created (`POST /__mock/reset {"personas": 100000}` in a
 *   new session, with a seed no world was built from: the world is seeded, not forked),
 * - that world is exported (`GET /__mock/state`, read as fast as it comes),
 * - the export is imported again (`PUT /__mock/state`),
 * - 20 clients ask for the export and read none of it.
 * Run by `npm run bench`, or alone after a build: `node scripts/bench/stalls.mjs [--personas N] [--rounds N]`.
 * Not part of `npm test`: no test measures time.
 */
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { startCli } from './state-file.mjs'

const argument = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback

/**
 * One request with node:http; resolves with the status, the body's length and its time. `read: false`
 * reads none of the body (the response is left paused, its socket open) and resolves at the headers.
 */
function request(url, { method = 'GET', headers = {}, body, agent, read = true } = {}) {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      if (!read) return resolve({ status: res.statusCode, res, ms: performance.now() - started })
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode, body: Buffer.concat(chunks), ms: performance.now() - started }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Asks for health over and over (one at a time, each on a new connection, as a probe does: a kept-alive
 * one may be closed by the server's keep-alive timeout just as a request goes out) until `stop()`; the
 * latencies in ms.
 */
function probeHealth(url) {
  const latencies = []
  let running = true
  const done = (async () => {
    while (running) {
      const { status, ms } = await request(`${url}/__mock/health`, { agent: false })
      if (status !== 200) throw new Error(`health answered ${status}`)
      latencies.push(ms)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  return async () => ((running = false), await done, latencies)
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/** Runs `operation` while health is probed: its own time and result, and the health latencies. */
async function whileProbing(url, operation) {
  const stop = probeHealth(url)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const started = performance.now()
  const result = await operation()
  const ms = performance.now() - started
  const latencies = (await stop()).sort((a, b) => a - b)
  return {
    ms: Math.round(ms),
    result,
    health: {
      count: latencies.length,
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies.at(-1) ?? 0),
    },
  }
}

/** The figures of one round on a fresh server. */
async function round(personas, index) {
  const log = (...parts) => console.error(`  stalls round ${index + 1}:`, ...parts)
  const server = await startCli(['--personas', '60', '--max-body-bytes', String(2 ** 30)])
  try {
    const session = { 'x-mock-session': `stalls-${index}`, 'content-type': 'application/json' }
    const seeding = await whileProbing(server.url, () =>
      request(`${server.url}/__mock/reset`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ personas, seed: 1000 + index }),
      }),
    )
    log('seeded in', seeding.ms, 'ms; health', seeding.health)
    const exporting = await whileProbing(server.url, () => request(`${server.url}/__mock/state`, { headers: session }))
    const state = exporting.result.body
    log('exported in', exporting.ms, 'ms; health', exporting.health)
    const importing = await whileProbing(server.url, () =>
      request(`${server.url}/__mock/state`, {
        method: 'PUT',
        headers: { ...session, 'x-mock-session': `stalls-import-${index}` },
        body: state,
      }),
    )
    log('imported in', importing.ms, 'ms; health', importing.health)
    const unread = await whileProbing(server.url, async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => request(`${server.url}/__mock/state`, { headers: session, read: false })),
      )
      await new Promise((resolve) => setTimeout(resolve, 2000))
      for (const { res } of answers) res.destroy()
      return answers.map(({ status }) => status)
    })
    for (const [name, step] of Object.entries({ seeding, exporting, importing })) {
      if (step.result.status !== 200) throw new Error(`${name} answered ${step.result.status}`)
    }
    return {
      seeding: { ms: seeding.ms, health: seeding.health },
      exporting: { ms: exporting.ms, bytes: state.byteLength, health: exporting.health },
      importing: { ms: importing.ms, health: importing.health },
      unread: {
        accepted: unread.result.filter((status) => status === 200).length,
        refused: unread.result.filter((status) => status === 503).length,
        health: unread.health,
      },
    }
  } finally {
    await server.stop()
  }
}

/** Every round's figures; the table of them. */
export async function measureStalls({ personas = 100_000, rounds = 1 } = {}) {
  const results = []
  for (let i = 0; i < rounds; i++) results.push(await round(personas, i))
  return { personas, rounds: results }
}

export function stallsTable({ personas, rounds }) {
  const row = (name, operation, step) =>
    `| ${name} | ${operation} | ${step.health.count} | ${step.health.p50} | ${step.health.p99} | ${step.health.max} |`
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
  return [
    `Health (\`GET /__mock/health\`, one request at a time) while a world of ${personas.toLocaleString('en')} personas per team is built, exported, imported:`,
    '',
    '| while | operation took | health answers | p50 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rounds.flatMap((r) => [
      row('a new session is seeded (`POST /__mock/reset`)', `${r.seeding.ms} ms`, r.seeding),
      row('`GET /__mock/state` is read', `${r.exporting.ms} ms (${mib(r.exporting.bytes)})`, r.exporting),
      row('`PUT /__mock/state` imports it', `${r.importing.ms} ms`, r.importing),
      row(
        `20 clients ask for the export and read none of it (${r.unread.accepted} streamed, ${r.unread.refused} refused with 503)`,
        'held 2 s',
        r.unread,
      ),
    ]),
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measureStalls({ personas: argument('--personas', 100_000), rounds: argument('--rounds', 1) })
  console.log(stallsTable(figures).join('\n'))
}
