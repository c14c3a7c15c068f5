#!/usr/bin/env node
/**
 * Builds dist/: each source file (every .ts that scripts/tsconfig.build.json compiles) transpiled
 * by esbuild to one .js with its source map, sources embedded, so that a debugger and Vite find them
 * though the package ships no .ts. It takes a fraction of a second, so a fresh clone's first
 * `npm start` answers about as soon as a later one. Type checking is `npm run typecheck`'s (and
 * `npm test`'s), not the build's.
 *
 *   node scripts/build.mjs                 dist/*.js (npm start, npm run dev, the tests, bench)
 *   node scripts/build.mjs --declarations  also dist/*.d.ts, with tsc (npm run build, npm pack)
 *
 * `build()` and `sourceFiles()` are exported for scripts/start.mjs and scripts/dev.mjs.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CONFIG = join(root, 'scripts/tsconfig.build.json')
const OUT_DIR = join(root, 'dist')

/**
 * The source files, relative to the root: the .ts files under the config's `include` folders,
 * less its `exclude` folders, dot folders and declaration files. The config names plain folders
 * only (no globs), so this walk and tsc read the same list; scripts/check-layers.mjs asks tsc.
 */
export function sourceFiles() {
  const config = JSON.parse(readFileSync(CONFIG, 'utf8'))
  const at = (path) => resolve(dirname(CONFIG), path)
  const excluded = new Set(config.exclude.map(at))
  const files = []
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || excluded.has(full)) continue
      if (entry.isDirectory()) visit(full)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(relative(root, full))
    }
  }
  // `dir/**/*` (a glob TypeScript needs where the project's path holds a dot folder) is the folder itself here.
  for (const path of config.include.map((path) => at(path.replace(/\/\*\*\/\*$/, '')))) visit(path)
  return files.sort()
}

/**
 * Brings dist/ up to date with the sources; returns 0, or 1 when a file does not parse (esbuild
 * prints where). Files of sources that are gone are removed, so dist/ never runs deleted code.
 * @param {{ declarations?: boolean }} [options] `declarations`: also write .d.ts files with tsc.
 */
export async function build({ declarations = false } = {}) {
  const files = sourceFiles()
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: files,
      outdir: OUT_DIR,
      outbase: root,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      sourcemap: true,
      sourcesContent: true,
      logLevel: 'error',
    })
  } catch {
    return 1
  }
  removeStale(new Set(files.map((file) => file.replace(/\.ts$/, ''))))
  if (!declarations) return 0
  const tsc = join(root, 'node_modules/typescript/bin/tsc')
  const args = [tsc, '-p', CONFIG, '--emitDeclarationOnly', '--declaration', '--noEmit', 'false']
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1
}

/** Removes what dist/ holds of sources that no longer exist (their .js, .js.map and .d.ts). */
function removeStale(sources) {
  if (!existsSync(OUT_DIR)) return
  for (const entry of readdirSync(OUT_DIR, { recursive: true, withFileTypes: true })) {
    const name = relative(OUT_DIR, join(entry.parentPath ?? entry.path, entry.name))
    const source = /^(.*)\.(js|js\.map|d\.ts|d\.ts\.map)$/.exec(name)?.[1]
    if (entry.isFile() && source && !sources.has(source)) rmSync(join(OUT_DIR, name))
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await build({ declarations: process.argv.includes('--declarations') }))
}
