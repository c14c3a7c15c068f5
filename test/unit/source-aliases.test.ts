/**
 * The package's export names resolve to the TypeScript sources in the repository's tooling
 * (scripts/source-aliases.ts, in the Vitest configs and the Storybook), while the published exports name only
 * built files: an app that asks for another condition finds no `.ts` file that was never shipped.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import * as byName from 'agent-console-mock'
import * as bySource from '../../handlers/index.js'
import { sourceAliases } from '../../scripts/source-aliases.js'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | Record<string, string | null>>
}

it('imports the package by its name from the source, so a stale dist/ cannot stand in for it', () => {
  // One module: had the name resolved to dist/handlers/index.js, these would be two copies.
  expect(byName.createCore).toBe(bySource.createCore)
})

it('aliases every built export, by its exact name, to its source', () => {
  const aliases = sourceAliases()
  const names = Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => `agent-console-mock${subpath.slice(1)}`)
  expect(names.map((name) => aliases.filter((alias) => alias.find.test(name)).length)).toEqual(names.map(() => 1))
  expect(aliases.find((alias) => alias.find.test('agent-console-mock/node'))?.replacement).toMatch(/\/node\/index\.ts$/)
})

it('publishes no export condition that names a file outside the build', () => {
  const targets = Object.values(manifest.exports).flatMap((entry) =>
    typeof entry === 'string' ? [entry] : Object.values(entry).filter((path) => path !== null),
  )
  expect(targets.filter((path) => !/^\.\/dist\/.+\.(js|d\.ts)$/.test(path) && path !== './package.json')).toEqual([])
})
