import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { bulkAddTo, startCli, storedValues } from './support/cli.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-depth-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** An object nested `depth` levels deep. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
/** How deep a JSON text nests (no string in it holds a bracket). */
const depthOf = (json: string) => {
  let depth = 0
  let deepest = 0
  for (const char of json) {
    depth += char === '{' || char === '[' ? 1 : char === '}' || char === ']' ? -1 : 0
    deepest = Math.max(deepest, depth)
  }
  return deepest
}

it('keeps through kill -9 after kill -9 a bulk add nested as deep as the API takes, and takes its own export back', async () => {
  const args = ['--port', '0', '--quiet', '--personas', '2', '--state-file', join(folder, 'state.json')]
  let server = await startCli(args)
  try {
    // The body nests 1,000 levels (the metadata 997): the deepest the API takes; one more is refused.
    const deepest = `{"values": [{"value": "deep", "metadata": ${nested(997)}}]}`
    expect(await bulkAddTo(server.url, [], deepest)).toBe(201)
    expect(await bulkAddTo(server.url, [], deepest.replace('"deep"', '"deeper"').replace('{"a":', '{"a":{"a":'))).toBe(
      400,
    )
    for (let round = 1; round <= 3; round++) {
      expect(await bulkAddTo(server.url, [`after-${round}`]), `round ${round}`).toBe(201)
      await server.stop('SIGKILL')
      server = await startCli(args) // the first restart replays the log and compacts; the next load that snapshot
      const values = await storedValues(server.url)
      expect(
        ['deep', `after-${round}`].filter((value) => !values.has(value)),
        `round ${round}`,
      ).toEqual([])
    }
    const exported = await (await fetch(`${server.url}/__mock/state`)).text()
    expect(depthOf(exported), 'the export wraps the metadata four levels deeper').toBe(1001)
    const put = await fetch(`${server.url}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: exported,
    })
    expect(put.status, await put.clone().text()).toBe(200)
    expect(await (await fetch(`${server.url}/__mock/state`)).text(), 'taken back as it was').toBe(exported)
  } finally {
    await server.stop('SIGKILL')
  }
}, 120_000)

it('refuses a record nested deeper than the API takes through the control API, and keeps one that is not', async () => {
  const args = ['--port', '0', '--quiet', '--personas', '2', '--state-file', join(folder, 'records.json')]
  let server = await startCli(args)
  try {
    const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as {
      dimensions: Array<{ id: string }>
    }
    const store = (value: string, depth: number) =>
      fetch(`${server.url}/__mock/records/values`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"dimension_id": "${fixtures.dimensions[0]!.id}", "value": "${value}", "value_metadata": ${nested(depth)}}`,
      })
    expect((await store('kept', 999)).status, 'the body nests 1,000 levels').toBe(201)
    for (const depth of [1000, 20_000]) {
      const refused = await store(`refused-${depth}`, depth)
      expect(refused.status, `${depth}`).toBe(400)
      expect(await refused.json()).toEqual({
        detail: 'The body nests arrays and objects more than 1000 levels deep',
      })
    }
    await server.stop('SIGKILL')
    server = await startCli(args)
    const values = await storedValues(server.url)
    expect([...values].filter((value) => ['kept', 'refused-1000', 'refused-20000'].includes(value))).toEqual(['kept'])
  } finally {
    await server.stop('SIGKILL')
  }
}, 120_000)
