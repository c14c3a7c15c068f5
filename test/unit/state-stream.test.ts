/**
 * The streamed export (model/state/stream.ts) writes the bytes of the whole-string export, and the
 * sliced import (model/state/read.ts) reads what `parseState` reads, refusing what it refuses with
 * the same words. No assertion on time: yielding is seen by counting event-loop turns.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { statePieces, stateStream } from '../../model/state/stream.js'
import { lastReadPath, readState } from '../../model/state/read.js'
import { parseState, serializeState, type WorldState } from '../../model/state/index.js'
import type { WorldContents } from '../../model/world.js'
import { PyDict, PyFloat } from '../../fastapi/python/value.js'

const TEAM = '11111111-1111-4111-8111-111111111111'
const DIMENSION = '22222222-2222-4222-8222-222222222222'

/** Nested `depth` arrays deep: past the depth where the whole encoder stops using JSON.stringify. */
const nested = (depth: number): unknown => (depth === 0 ? new PyFloat(1) : [nested(depth - 1)])

/** A world whose records hold what is hard to write: big ints, floats, odd strings, deep metadata. */
function oddWorld(values: number): WorldState {
  const metadata = (i: number) =>
    new PyDict([
      ['__proto__', new PyDict([['a', new PyFloat(1)]]) as never],
      ['big', (10n ** 30n + BigInt(i)) as never],
      ['tiny', new PyFloat(1e-7) as never],
      ['text', `"\\\u2028\u0000😀\ud800 ${i}` as never],
      ['deep', nested(40) as never],
    ])
  const contents = {
    teams: [{ id: TEAM, name: 'Zoë "quoted" \\ team', created_at: 1 }],
    personas: [],
    dimensions: [{ id: DIMENSION, name: 'Région', description: null, created_at: 2 }],
    values: Array.from({ length: values }, (_, i) => ({
      id: `33333333-3333-4333-8333-${String(i).padStart(12, '0')}`,
      dimension_id: DIMENSION,
      value: `v${i}\u2029\ud83d`,
      display_name: `é${i}`,
      value_metadata: metadata(i),
      sort_order: i % 2 === 0 ? 2n ** 64n + BigInt(i) : -i,
      created_at: 3,
    })),
    policies: [],
    rules: [],
  } as unknown as WorldContents
  return { seed: 2 ** 53 - 1, personasPerTeam: 100_000, contents }
}

/** A plain world (JSON.stringify writes it whole), of `count` records. */
const plainWorld = (count: number): WorldState => ({
  seed: -7,
  personasPerTeam: 0,
  contents: {
    teams: Array.from({ length: count }, (_, i) => ({ id: `t${i}`, name: `team ${i}`, created_at: i })),
    personas: [],
    dimensions: [],
    values: [],
    policies: [],
    rules: [],
  } as unknown as WorldContents,
})

async function streamed(state: WorldState): Promise<string> {
  const body = await new Response(stateStream(state, { idleMs: 60_000 })).arrayBuffer()
  return new TextDecoder().decode(body)
}

afterEach(() => void vi.useRealTimers())

it('writes the pieces of the whole export: odd records, plain records, an empty world', async () => {
  for (const state of [oddWorld(50), plainWorld(3), plainWorld(0)]) {
    const whole = serializeState(state)
    expect([...statePieces(state)].join('')).toBe(whole)
    expect(await streamed(state)).toBe(whole)
  }
})

it('streams many chunks whose bytes are those of the whole export', async () => {
  const state = oddWorld(3_000)
  const reader = stateStream(state, { idleMs: 60_000 }).getReader()
  const chunks: Uint8Array[] = []
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
  expect(chunks.length, 'written in several chunks').toBeGreaterThan(3)
  expect(Buffer.concat(chunks).equals(Buffer.from(serializeState(state)))).toBe(true)
})

it('takes a snapshot: records added or replaced after the export starts are not in it', async () => {
  const state = plainWorld(2_000)
  const before = serializeState(state)
  const stream = stateStream(state, { idleMs: 60_000 })
  state.contents.teams.push({ id: 'late', name: 'late', created_at: 0 } as never)
  state.contents.teams[0] = { id: 'replaced', name: 'replaced', created_at: 0 } as never
  expect(new TextDecoder().decode(await new Response(stream).arrayBuffer())).toBe(before)
})

it('drops an export left unread, once, and ends a cancelled one once', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const ended = vi.fn()
  const unread = stateStream(plainWorld(10), { idleMs: 1_000, onEnd: ended })
  vi.advanceTimersByTime(1_000)
  expect(ended).toHaveBeenCalledTimes(1)
  await expect(unread.getReader().read()).rejects.toThrow(/not read for 1000 ms/)
  const cancelled = vi.fn()
  const stream = stateStream(plainWorld(10), { idleMs: 1_000, onEnd: cancelled })
  await stream.cancel()
  vi.advanceTimersByTime(5_000)
  expect(cancelled).toHaveBeenCalledTimes(1)
})

it('gives the event loop back while it streams to a reader that never waits', async () => {
  const state = oddWorld(20_000)
  let turns = 0
  let counting = true
  const count = () => void (turns++, counting && setImmediate(count))
  setImmediate(count)
  await streamed(state)
  counting = false
  expect(turns, 'setImmediate callbacks ran while the export was written').toBeGreaterThan(2)
})

it('reads a state as parseState does, giving the event loop back', async () => {
  const text = serializeState(oddWorld(3_000))
  let turns = 0
  let counting = true
  const count = () => void (turns++, counting && setImmediate(count))
  setImmediate(count)
  const read = await readState(text)
  counting = false
  expect(lastReadPath(), 'read in slices, not handed to parseState').toBe('sliced')
  expect(read).toEqual(parseState(text))
  expect(turns, 'setImmediate callbacks ran while the state was read').toBeGreaterThan(2)
})

it('refuses what parseState refuses, with the same words, and takes what it takes', async () => {
  const text = serializeState(oddWorld(20))
  const cases = [
    text,
    ` \n\t${text}\r\n`,
    text.replace('"seed":9007199254740991', '"seed":1,"seed":2'),
    text.replace('"world":{', '"world":{"extra":[1,2],'),
    text.replace('"teams":[', '"teams" : [ '),
    text.slice(0, -1),
    `${text}x`,
    text.replace('"personasPerTeam":100000', '"personasPerTeam":1e12'),
    text.replace('"name":"Zoë', '"name":7,"x":"Zoë'),
    text.replace('"format":"agent-console-mock/state"', '"format":"other"'),
    text.replace(`"dimension_id":"${DIMENSION}"`, '"dimension_id":"nope"'),
    text.replace('"created_at":1}', '"created_at":1,}'),
    text.replace('"value":"v1', '"value":"\\x'),
    text.replace('[', '['.repeat(70)),
    text.replace('"display_name":"é1"', '"display_name":NaN'),
    `\ufeff${text}`,
    '[]',
    '',
    '{"format":"agent-console-mock/state","world":{"teams":"x"}}',
    text.replace('"world":{', '"__proto__":{"a":1},"world":{"__proto__":[{"b":2}],"toString":[],'),
    text.replace('"teams":[{', '"teams":[{"__proto__":{"id":"x"},'),
  ]
  const paths: Array<string | undefined> = []
  for (const [i, input] of cases.entries()) {
    const outcome = (read: () => unknown) => {
      try {
        return { state: read() }
      } catch (error) {
        return { error: (error as Error).message }
      }
    }
    const expected = outcome(() => parseState(input))
    const actual = await readState(input).then(
      (state) => ({ state }),
      (error: Error) => ({ error: error.message }),
    )
    expect(actual, `case ${i}`).toEqual(expected)
    paths.push(lastReadPath())
  }
  // The valid ones (the first five, and the __proto__ members) are read in slices; the others go to parseState.
  expect(paths).toEqual([
    ...['sliced', 'sliced', 'whole', 'sliced', 'sliced'],
    ...Array.from({ length: cases.length - 7 }, () => 'whole'),
    ...['sliced', 'sliced'],
  ])
})
