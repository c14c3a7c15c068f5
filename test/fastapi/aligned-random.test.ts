import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintToken } from 'agent-console-mock'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import type { ProfileOptions } from 'agent-console-mock'
import { fastapi0115, fastapi092 } from './python.js'
import { DEFAULT_SECRET, startFastApi, type RunningFastApi } from './server.js'

/**
 * Random (seeded) queries and bodies, sent to the reference app and to the mock: the status and body bytes must
 * be the same. Under FastAPI 0.92 the mock speaks `pydantic: '1'`, under FastAPI 0.115 its default pydantic 2.
 * Bodies go to an unknown dimension (or a malformed id), so nothing is written and every answer is a 422 or a 404.
 * Set ALIGNED_RANDOM_RUNS for more (the default keeps the test to a few seconds).
 */
const GENERATIONS = [
  { runtime: fastapi092, profile: { pydantic: '1', missingCredentialsStatus: 403 } as ProfileOptions },
  { runtime: fastapi0115, profile: { missingCredentialsStatus: 403 } as ProfileOptions, echoesInput: true },
]

/**
 * A body with NaN, an infinity or a number that overflows to one: where pydantic 2 echoes such a value (its 422
 * `input`, or `metadata`), FastAPI cannot write its answer and says 500; the mock answers 422 instead, the value
 * written as `"NaN"`/`"Infinity"` (a deliberate difference: docs/decisions.md).
 */
const NON_FINITE = /NaN|Infinity|1e400/
const DELIBERATE_422 = /^422 .*(:"-?(NaN|Infinity)"|"type":"finite_number")/
const RUNS = Number(process.env['ALIGNED_RANDOM_RUNS'] ?? 150)
const SEED = Number(process.env['ALIGNED_RANDOM_SEED'] ?? 13)

/** mulberry32: the same cases in every run of a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ID = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'
const HEX = ID.replaceAll('-', '')
const INTS = [
  '0',
  '1',
  '-1',
  ' 5',
  '+5',
  '-0',
  '007',
  '1_0',
  '1__0',
  '_1',
  '1.0',
  '1e2',
  '0x10',
  '\u0661\u0662',
  '\uff15',
]
const MORE_INTS = ['\u00a07', '\v5', '\x1c5', '', '99999999999999999999', '--1', '5\n', '1 0', '101', '1000', '1001']
const UUIDS = [ID, ID.toUpperCase(), HEX, `{${ID}}`, `urn:uuid:${ID}`, `+${HEX.slice(1)}`, ` ${HEX.slice(1)}`]
const MORE_UUIDS = [`0x${HEX.slice(2)}`, `5_${HEX.slice(2)}`, HEX.slice(1), `${ID.slice(0, -1)}g`, `}${HEX}{`, '', 'x']
const BOOLS = ['1', '0', 'true', 'tRuE', 'Y', 'on', 'off', 'F', 'NO', 'maybe', '', ' true', '2', '1.0', '\u0130']
const SCALARS = ['null', 'true', '0', '-1', '1.5', '1e2', '1e16', '1e400', '-0.0', '12345678901234567890123', '"x"']
const MORE_SCALARS = [
  '""',
  '" 5 "',
  '"1_0"',
  `"${'y'.repeat(255)}"`,
  `"${'z'.repeat(256)}"`,
  'NaN',
  '[]',
  '{}',
  '[1, 2]',
]
const PAIRS = ['[["a", 1]]', '["ab"]', '[[1, 2], [true, 3]]', '[[null, 1]]', '{"k": NaN}', '"\\u00e9t\\u00e9"']

function cases(next: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  const value = () => pick([...SCALARS, ...MORE_SCALARS, ...PAIRS])
  const item = () => {
    if (next() < 0.1) return value()
    const fields = ['value', 'display_name', 'metadata', 'sort_order', 'extra'].filter(() => next() < 0.6)
    return `{${fields.map((field) => `"${field}": ${value()}`).join(', ')}}`
  }
  const query = () => {
    const all = [
      `team_id=${encodeURIComponent(pick([...UUIDS, ...MORE_UUIDS]))}`,
      `limit=${encodeURIComponent(pick([...INTS, ...MORE_INTS]))}`,
      `offset=${encodeURIComponent(pick([...INTS, ...MORE_INTS]))}`,
      `is_preset=${encodeURIComponent(pick(BOOLS))}`,
      `intents=${pick(['benign', 'x', ''])}`,
    ]
    return all.filter(() => next() < 0.6).join('&')
  }
  const body = () => {
    const roll = next()
    if (roll < 0.05)
      return pick(['', 'null', '[]', '""', '[["values", []]]', '{"values": [1,', '\n {"a":\n x}', '[1,2'])
    if (roll < 0.1) return `{"values": ${value()}}`
    return `{"values": [${Array.from({ length: Math.floor(next() * 4) }, item).join(', ')}]}`
  }
  return { query, body, pick }
}

describe.each(GENERATIONS)('the mock beside $runtime.name, on random requests', ({ runtime, profile, echoesInput }) => {
  const unavailable = runtime.unavailable()
  if (unavailable) console.warn(`test/fastapi/aligned-random skipped for ${runtime.name}: ${unavailable}`)
  let reference: RunningFastApi
  let mock: RunningServer
  let token: string
  beforeAll(async () => {
    if (unavailable) return
    ;[reference, mock] = await Promise.all([
      startFastApi({ secret: DEFAULT_SECRET, runtime }),
      startServer({ port: 0, jwtSecret: DEFAULT_SECRET, profile, cors: false, logger: { error: console.error } }),
    ])
    token = await mintToken({ sub: 'random', is_super_admin: true }, DEFAULT_SECRET)
  }, 60_000)
  afterAll(async () => {
    await Promise.all([reference?.stop(), mock?.close()])
  })

  /**
   * Each request on a connection of its own (`connection: close`): after the 500 of an app's exception (the
   * non-finite values above) uvicorn closes the connection without saying so, and a request sent on it before the
   * client sees the close, which a busy machine allows, meets ECONNRESET. A failure names its request.
   */
  const answer = async (url: string, init: RequestInit) => {
    const headers = { authorization: `Bearer ${token}`, connection: 'close', ...init.headers }
    try {
      const res = await fetch(url, { ...init, headers })
      return `${res.status} ${await res.text()}`
    } catch (error) {
      const body = init.body === undefined ? '' : ` ${JSON.stringify(init.body)}`
      throw new Error(`${init.method ?? 'GET'} ${url}${body}: ${String((error as Error).cause ?? error)}`, {
        cause: error,
      })
    }
  }

  it.skipIf(unavailable)(
    `answers ${RUNS} random queries and ${RUNS} random bodies as the reference app (seed ${SEED})`,
    async () => {
      const { query, body, pick } = cases(random(SEED))
      for (let run = 0; run < RUNS; run++) {
        const path = run % 3 === 2 ? `/v1/policies/${encodeURIComponent(pick(UUIDS))}/rules` : '/v1/personas/'
        const target = `${path}?${query()}`
        const [expected, got] = await Promise.all([reference.url, mock.url].map((url) => answer(url + target, {})))
        // Two 200s differ by data only (the worlds are not the same): the validation passed in both.
        if (!expected!.startsWith('200 ') || !got!.startsWith('200 ')) expect.soft(got, target).toBe(expected)
      }
      for (let run = 0; run < RUNS; run++) {
        const text = body()
        const init: RequestInit = {
          method: 'POST',
          body: text,
          headers: { 'content-type': pick(['application/json', 'text/plain']) },
        }
        const path = `/v1/demographics/${pick([ID, 'nope'])}/values/bulk`
        const [expected, got] = await Promise.all([reference.url, mock.url].map((url) => answer(url + path, init)))
        if (echoesInput && NON_FINITE.test(text) && got !== expected)
          expect.soft(got, `${path} ${text}: the deliberate 422`).toMatch(DELIBERATE_422)
        else expect.soft(got, `${path} ${text}`).toBe(expected)
      }
    },
  )
})
