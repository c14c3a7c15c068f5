import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { createWorld } from 'agent-console-mock'

const contentsOf = async (seed: number, personasPerTeam?: number) =>
  JSON.stringify((await createWorld({ seed, personasPerTeam })).contents())

it('builds deep-equal worlds from one seed', async () => {
  const [a, b] = await Promise.all([createWorld({ seed: 42 }), createWorld({ seed: 42 })])
  expect(a.contents()).toEqual(b.contents())
})

it('builds another world from another seed', async () => {
  expect(await contentsOf(43)).not.toBe(await contentsOf(42))
})

it('keeps teams, dimensions and policies of a seed whatever the number of personas', async () => {
  const [small, large] = await Promise.all([
    createWorld({ seed: 8, personasPerTeam: 5 }),
    createWorld({ seed: 8, personasPerTeam: 500 }),
  ])
  for (const part of ['teams', 'dimensions', 'values', 'policies', 'rules'] as const)
    expect(small.contents()[part], part).toEqual(large.contents()[part])
  expect(small.personas.count()).toBe(10)
})

it('gives byte-identical store contents in another process running the built package', async () => {
  const built = resolve(import.meta.dirname, '../../dist/handlers/index.js')
  const script = `import(${JSON.stringify(pathToFileURL(built).href)}).then(async (m) => process.stdout.write(JSON.stringify((await m.createWorld({ seed: 9 })).contents())))`
  const other = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    maxBuffer: 64 * 1024 * 1024,
  }).toString()
  expect(other.length).toBeGreaterThan(10_000)
  expect(other === (await contentsOf(9)), 'the child process wrote the same bytes').toBe(true)
}, 60_000)
