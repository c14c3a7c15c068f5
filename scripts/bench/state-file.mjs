// @ts-check
/**
 * Bulk adds (100 values each) with `--state-file` against the same without: two CLI processes,
 * one keeping its world in a state file in a fresh folder of the system's temporary directory
 * (every answer waits for its change to be fsynced), the same autocannon settings as bench.mjs,
 * alternating, several rounds, medians. Run by `npm run bench`, or alone after a build:
 * `node scripts/bench/state-file.mjs [--quick]`. Not part of `npm test`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'

const CONNECTIONS = 10
const PERSONAS = 1_000

/** Starts the CLI with `args`; its URL, fixtures and a stop function. */
export async function startCli(args) {
  const child = spawn(process.execPath, ['dist/server/cli.js', '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}:\n${output}`)))
  })
  const fixtures = await (await fetch(`${url}/__mock/fixtures`)).json()
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return { url, fixtures, cpuMs: () => cpuMs(child.pid), stop: () => (child.kill('SIGTERM'), exited) }
}

/** CPU time a process has used so far (user + system, Linux's /proc), in ms; 0 elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // USER_HZ is 100 on Linux
  } catch {
    return 0
  }
}

let unique = 0
const bulkAdd = (fixtures) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${fixtures.tokens.super_admin}` },
  setupRequest: (req) => ({
    ...req,
    path: `/v1/demographics/${fixtures.dimensions[0].id}/values/bulk`,
    body: JSON.stringify({ values: Array.from({ length: 100 }, () => ({ value: `bench-${++unique}` })) }),
  }),
})

async function load(server, seconds) {
  const cpuBefore = server.cpuMs()
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [bulkAdd(server.fixtures)],
  })
  const cpuPerRequest = (server.cpuMs() - cpuBefore) / Math.max(1, result.requests.total)
  return { rps: result.requests.average, p99: result.latency.p99, cpuPerRequest, ...result }
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0

/**
 * Bulk-add requests per second in memory and with `--state-file`, alternating.
 * @returns medians, the ratio, and the sizes of the state file and its log at the end
 */
export async function measureStateFile({ rounds = 3, seconds = 5 } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'agent-console-mock-bench-state-'))
  const stateFile = join(folder, 'state.json')
  const personas = ['--personas', String(PERSONAS)]
  const servers = {
    memory: await startCli(personas),
    stateFile: await startCli([...personas, '--state-file', stateFile]),
  }
  const runs = { memory: [], stateFile: [] }
  try {
    // An untimed second for each first: both measured warm.
    for (const server of Object.values(servers)) await load(server, 1)
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['memory', 'stateFile'] : ['stateFile', 'memory']
      for (const name of order) runs[name].push(await load(servers[name], seconds))
    }
    const sizes = { snapshotBytes: statSync(stateFile).size, logBytes: statSync(`${stateFile}.log`).size }
    const summary = (list) => ({
      rps: Math.round(median(list.map((r) => r.rps))),
      p99: median(list.map((r) => r.p99)),
      cpuMsPerRequest: Number(median(list.map((r) => r.cpuPerRequest)).toFixed(2)),
      non2xx: list.reduce((n, r) => n + r.non2xx, 0),
      errors: list.reduce((n, r) => n + r.errors, 0),
    })
    const memory = summary(runs.memory)
    const withStateFile = summary(runs.stateFile)
    return { personas: PERSONAS, rounds, seconds, memory, stateFile: withStateFile, ...sizes }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The result as the lines of a table. */
export function stateFileTable(result) {
  const percent = Math.round((result.stateFile.rps / result.memory.rps) * 100)
  const row = (name, { rps, p99, cpuMsPerRequest, non2xx, errors }) =>
    `| ${name} | ${rps} | ${p99} | ${cpuMsPerRequest} | ${non2xx} / ${errors} |`
  return [
    `Bulk add (100 values), ${result.personas} personas per team, ` +
      `${result.rounds} round(s) of ${result.seconds} s, ${CONNECTIONS} connections:`,
    '',
    '| server | req/s | p99 ms | server CPU ms per request | non-2xx / errors |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('in memory', result.memory),
    row('--state-file', result.stateFile),
    '',
    `--state-file / in memory: ${percent}% (target >= 50%); at the end the state file held ` +
      `${result.snapshotBytes} bytes and its log ${result.logBytes}`,
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick')
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || undefined
  const result = await measureStateFile(quick ? { rounds: 1, seconds: 2 } : { rounds })
  console.log(stateFileTable(result).join('\n'))
}
