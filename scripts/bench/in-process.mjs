// @ts-check
/**
 * Requests per second in-process: `fetch` intercepted by msw's `setupServer`, 10 concurrent loops,
 * persona list (limit 10, random offsets). The mock (`createMockServer`) alternates with the
 * anchor, a bare `setupServer` handler answering one page written in advance, with the headers
 * the mock writes (`content-length`, `content-type`), as the standalone ceiling does. Both run on
 * whichever msw the project has installed, on the node that runs this script, so one run measures
 * one platform (msw 2 / Node 20, msw 3 / Node 22). Besides req/s, the process's CPU time per
 * request, which a machine shared with other runs disturbs less. Run by `npm run bench`, or alone
 * after a build: `node scripts/bench/in-process.mjs [--quick] [--rounds N] [--seconds N]`.
 * Not part of `npm test`.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { createMockServer } from '../../dist/node/index.js'

const CONNECTIONS = 10
const WARM_UP = 500

/** The platform measured: the node running this script and the msw it imports. */
export const platform = () =>
  `Node ${process.version}, msw ${createRequire(import.meta.url)('msw/package.json').version}`

const random = (max) => Math.floor(Math.random() * Math.max(1, max))
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0

/**
 * The range that holds the median of `ratios` in 90% of 2,000 resamplings of them (a bootstrap): a target inside
 * it is not told apart from noise. On msw 3 single rounds move by ±20%, so a median alone says little.
 */
export function medianRange(ratios) {
  const resampled = Array.from({ length: 2000 }, () =>
    median(ratios.map(() => ratios[Math.floor(Math.random() * ratios.length)])),
  ).sort((a, b) => a - b)
  return [resampled[100], resampled[1899]]
}

/**
 * The mock and the anchor on the persona list of a team of `size`, `rounds` rounds of `seconds`
 * each (which goes first alternates), medians: req/s and CPU µs per request of each, and the
 * median of each round's ratio (the two measured side by side).
 */
/**
 * Waits out undici's keep-alive (4 s): on msw 3 every request of a tight `fetch` loop opens a mocked connection
 * that stays pooled until then, and each dispatch scans the pool. A run right after another would inherit the
 * other's thousands of connections; each starts with an empty pool instead.
 */
export const poolEmptied = () => new Promise((resolve) => setTimeout(resolve, 5000))

export async function measureInProcess({ size = 10_000, rounds = 3, seconds = 5 } = {}) {
  const mock = await createMockServer({ personasPerTeam: size })
  const headers = { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` }
  const sample = await fetch(mock.url('/v1/personas/?limit=10'), { headers })
  const page = new Uint8Array(await sample.arrayBuffer())
  const pageHeaders = Object.fromEntries(
    ['content-length', 'content-type'].map((name) => [name, sample.headers.get(name) ?? '']),
  )
  mock.close()
  const anchor = setupServer(
    http.get('http://localhost/v1/personas/', () => new Response(page, { headers: pageHeaders })),
  )
  const servers = { mock: mock.server, anchor }
  const runs = { mock: [], anchor: [] }
  const once = () =>
    fetch(`http://localhost/v1/personas/?limit=10&offset=${random(size - 10)}`, { headers }).then((res) => {
      if (res.status !== 200) throw new Error(`in-process persona list answered ${res.status}`)
      return res.arrayBuffer()
    })
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['mock', 'anchor'] : ['anchor', 'mock']
    for (const name of order) {
      const server = servers[name]
      await poolEmptied()
      server.listen({ onUnhandledRequest: 'error' })
      runs[name].push(await loops(once, seconds))
      server.close()
    }
  }
  const summary = (list) => ({
    rps: Math.round(median(list.map((run) => run.rps))),
    cpuUsPerRequest: Math.round(median(list.map((run) => run.cpuUs))),
  })
  const ratios = runs.mock.map((run, index) => run.rps / runs.anchor[index].rps)
  return {
    platform: platform(),
    size,
    rounds,
    seconds,
    mock: summary(runs.mock),
    anchor: summary(runs.anchor),
    ratio: median(ratios),
    range: medianRange(ratios),
    ratios,
  }
}

/** `once` in CONNECTIONS concurrent loops for `seconds`, after an untimed warm-up: req/s and CPU µs a request. */
async function loops(once, seconds) {
  for (let i = 0; i < WARM_UP; i++) await once()
  let count = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  const until = started + seconds * 1000
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        await once()
        count++
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  return { rps: count / elapsed, cpuUs: (used.user + used.system) / count }
}

/** The result as lines of markdown. */
export function inProcessTable(result) {
  const percent = (ratio) => `${Math.round(ratio * 100)}%`
  return [
    `In-process, setupServer + fetch, persona list on ${result.size.toLocaleString('en')} personas a team, ` +
      `${CONNECTIONS} loops, ${result.rounds} round(s) of ${result.seconds} s, on ${result.platform}:`,
    '',
    '| server | req/s | CPU µs per request |',
    '| --- | ---: | ---: |',
    `| the mock (createMockServer) | ${result.mock.rps} | ${result.mock.cpuUsPerRequest} |`,
    `| a bare setupServer handler answering a page written in advance | ${result.anchor.rps} | ${result.anchor.cpuUsPerRequest} |`,
    '',
    `mock / bare handler: ${percent(result.ratio)}, 90% range ${result.range.map(percent).join('–')} ` +
      `(target >= 90%; each round: ${result.ratios.map(percent).join(', ')})`,
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const option = (name) => Number(process.argv[process.argv.indexOf(name) + 1]) || undefined
  const quick = process.argv.includes('--quick')
  const result = await measureInProcess({
    rounds: option('--rounds') ?? (quick ? 1 : 3),
    seconds: option('--seconds') ?? (quick ? 1 : 5),
  })
  console.log(inProcessTable(result).join('\n'))
}
