/**
 * The package's own export names (`agent-console-mock`, `agent-console-mock/node`, ...) as Vite aliases to their
 * TypeScript sources, for the repository's tooling: the Vitest configs and the Storybook import the package by its
 * public names and run the sources, with no build first. Read off package.json's `exports` (`./dist/X.js` is the
 * build of `X.ts`), so a new export needs no change here. It lives in the tooling, not in an export condition: a
 * published condition would name `.ts` files the package does not ship.
 * Loaded by Vite and Storybook, which transpile it (plain Node 20 runs no `.ts`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** One alias as Vite takes it: the exact name, so `agent-console-mock` does not also catch `/node`. */
export interface SourceAlias {
  find: RegExp
  replacement: string
}

type ExportTarget = string | null | { import?: string | null }

const ROOT = new URL('..', import.meta.url)
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * An alias per export whose `import` target is a built file; `./package.json` has none.
 * @throws when an export's source is missing (a renamed file the exports map still names)
 */
export function sourceAliases(): SourceAlias[] {
  const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
    name: string
    exports: Record<string, ExportTarget>
  }
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const built = typeof target === 'object' && target !== null ? target.import : target
    const stem = /^\.\/dist\/(.+)\.js$/.exec(built ?? '')?.[1]
    if (!stem) return []
    const source = fileURLToPath(new URL(`${stem}.ts`, ROOT))
    if (!existsSync(source)) throw new Error(`source-aliases: ${subpath} is built from ${source}, which is missing`)
    return [{ find: new RegExp(`^${escapeRegExp(manifest.name + subpath.slice(1))}$`), replacement: source }]
  })
}
