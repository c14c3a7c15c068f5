// @ts-check
/**
 * CPU time per in-process persona list of two builds of the mock and the anchor of in-process.mjs
 * (a bare `setupServer` handler answering a page written in advance), in one process, alternating
 * in every round: what an optimisation bought, on the node running this and the msw the builds
 * import. The lower quartile of the rounds is reported, as a machine shared with other runs adds
 * time to some rounds and never takes any away; and the median of each round's ratio to the anchor
 * with the range a bootstrap gives it. Not part of `npm test`. After building each:
 * `node --single-threaded-gc scripts/bench/compare-builds.mjs <before>/dist <after>/dist [requests a round] [rounds]`
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { medianRange, poolEmptied } from './in-process.mjs'

const SIZE = 10_000
const CONNECTIONS = 10
const WARM_UP = 2500

const [before, after] = process.argv.slice(2, 4)
if (!before || !after) throw new Error('usage: compare-builds.mjs <before dist> <after dist> [requests] [rounds]')
const requests = Number(process.argv[4]) || 1500
const rounds = Number(process.argv[5]) || 12

const mockOf = async (dist) => {
  const { createMockServer } = await import(pathToFileURL(resolve(dist, 'node/index.js')).href)
  const mock = await createMockServer({ personasPerTeam: SIZE })
  mock.close()
  return mock
}
const builds = { before: await mockOf(before), after: await mockOf(after) }
const headers = { authorization: `Bearer ${builds.before.fixtures.tokens.team_reader}` }
builds.before.server.listen({ onUnhandledRequest: 'error' })
const sample = await fetch(builds.before.url('/v1/personas/?limit=10'), { headers })
const page = new Uint8Array(await sample.arrayBuffer())
const pageHeaders = Object.fromEntries(
  ['content-length', 'content-type'].map((name) => [name, sample.headers.get(name) ?? '']),
)
builds.before.server.close()
const servers = {
  before: builds.before.server,
  after: builds.after.server,
  anchor: setupServer(http.get('http://localhost/v1/personas/', () => new Response(page, { headers: pageHeaders }))),
}

const once = () =>
  fetch(`http://localhost/v1/personas/?limit=10&offset=${Math.floor(Math.random() * (SIZE - 10))}`, { headers }).then(
    (res) => {
      if (res.status !== 200) throw new Error(`in-process persona list answered ${res.status}`)
      return res.arrayBuffer()
    },
  )

/** CPU µs per request of `count` requests in CONNECTIONS concurrent loops. */
async function cpuPerRequest(count) {
  let left = count
  const cpu = process.cpuUsage()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (left-- > 0) await once()
    }),
  )
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) / count
}

const names = /** @type {Array<keyof typeof servers>} */ (Object.keys(servers))
const runs = { before: [], after: [], anchor: [] }
for (let round = -1; round < rounds; round++) {
  for (const name of names.map((_, index) => names[(index + Math.max(round, 0)) % names.length])) {
    await poolEmptied()
    servers[name].listen({ onUnhandledRequest: 'error' })
    const perRequest = await cpuPerRequest(round < 0 ? WARM_UP : requests)
    if (round >= 0) runs[name].push(perRequest)
    servers[name].close()
  }
}
const quartile = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 4)] ?? 0
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
const percent = (ratio) => `${Math.round(ratio * 100)}%`

/**
 * The median of the rounds' ratios (each round measures the three side by side), and the range that holds it in 90%
 * of 2,000 resamplings of the rounds (a bootstrap): a target within the range is not told apart from noise.
 */
function pairedRatio(name) {
  const ratios = runs.anchor.map((anchorUs, round) => anchorUs / runs[name][round])
  return `${percent(median(ratios))} (90% range ${medianRange(ratios).map(percent).join('–')})`
}

const anchor = quartile(runs.anchor)
for (const name of names) {
  const us = quartile(runs[name])
  console.log(
    `${name}: ${Math.round(us)} CPU µs a request (lower quartile of ${rounds} rounds of ${requests}), anchor/${name} ${percent(anchor / us)}; by round ${pairedRatio(name)}`,
  )
}
process.exit(0)
