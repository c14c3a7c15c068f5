#!/usr/bin/env node
/**
 * Builds dist/ incrementally: `tsc -b tsconfig.build.json` (which sets `incremental`; its
 * tsBuildInfo lives in node_modules/.cache/agent-console-mock/, outside dist/ so it is never
 * packed), behind a quicker check of its own, so an unchanged tree costs a few milliseconds
 * instead of loading TypeScript (~0.3 s).
 *
 * tsc is skipped when all of these hold:
 * - the stamp of the last *successful* build exists (a failed build removes it, so its errors
 *   are reported again next time instead of being hidden);
 * - no input (a file or folder under the config's `include`, or a tsconfig) is newer than it;
 * - every source file has its .js in dist/.
 * Otherwise `tsc -b` runs and decides precisely what to rebuild. When dist/ lost files, the
 * tsBuildInfo is dropped first: tsc's own check trusts it and would call the project current.
 *
 * `node scripts/build.mjs [--force]` (`--force` rebuilds everything), or `build()` from here: used
 * by `npm start` (scripts/start.mjs), `npm run build`, `npm run dev`, the e2e/bench/soak scripts
 * and the vitest global setup.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CONFIG = join(root, 'tsconfig.build.json')
const STAMP = join(root, 'node_modules/.cache/agent-console-mock/build.stamp')

/** The config chain (the file and what it extends, relative paths only), merged for the keys used here. */
function readConfig() {
  const chain = []
  for (let file = CONFIG; file; ) {
    const json = JSON.parse(readFileSync(file, 'utf8')) // a tsconfig with comments: no quick check, tsc decides
    chain.unshift({ file, json })
    const parent = typeof json.extends === 'string' && json.extends.startsWith('.') ? json.extends : undefined
    file = parent && resolve(dirname(file), parent.endsWith('.json') ? parent : `${parent}.json`)
  }
  let config = { compilerOptions: {}, configFiles: chain.map(({ file }) => file) }
  for (const { file, json } of chain) {
    const at = (path) => resolve(dirname(file), path)
    const options = { ...json.compilerOptions }
    for (const key of ['outDir', 'rootDir', 'tsBuildInfoFile']) if (options[key]) options[key] = at(options[key])
    config = {
      ...config,
      compilerOptions: { ...config.compilerOptions, ...options },
      include: json.include?.map(at) ?? config.include,
      exclude: json.exclude?.map(at) ?? config.exclude,
    }
  }
  return config
}

/**
 * Walks the inputs: `newer` when a file or folder is newer than `since` (ms), `missing` when a
 * source file has no .js in outDir. Stops early once both are known to matter.
 */
function scan(config, since) {
  const {
    compilerOptions: { outDir, rootDir = root },
    include,
    exclude = [],
  } = config
  const excluded = new Set(exclude)
  const found = { newer: config.configFiles.some((file) => statSync(file).mtimeMs > since), missing: false }
  const visit = (path) => {
    if (found.missing || excluded.has(path) || path.endsWith('/node_modules')) return
    let stats
    try {
      stats = statSync(path)
    } catch {
      return
    }
    if (stats.mtimeMs > since) found.newer = true
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name))
    else if (/\.[mc]?tsx?$/.test(path) && !/\.d\.[mc]?tsx?$/.test(path)) {
      if (!existsSync(join(outDir, relative(rootDir, path)).replace(/\.([mc]?)tsx?$/, '.$1js'))) found.missing = true
    }
  }
  for (const path of include) visit(path)
  return found
}

/**
 * Brings dist/ up to date; returns tsc's exit status (0 when nothing needed building).
 * @param {{ force?: boolean }} [options] `force`: rebuild everything.
 */
export function build({ force = false } = {}) {
  let config
  try {
    config = readConfig()
    const { outDir, tsBuildInfoFile } = config.compilerOptions
    // Only plain folder and file names are understood here; globs go to tsc.
    if (!outDir || !config.include || [...config.include, ...(config.exclude ?? [])].some((p) => /[*?]/.test(p)))
      config = undefined
    else if (!force) {
      const stamp =
        existsSync(STAMP) && (!tsBuildInfoFile || existsSync(tsBuildInfoFile)) ? statSync(STAMP).mtimeMs : -1
      const { newer, missing } = scan(config, stamp)
      if (stamp >= 0 && !newer && !missing) return 0
      if (missing && tsBuildInfoFile) rmSync(tsBuildInfoFile, { force: true })
    }
  } catch {
    config = undefined
  }
  if (force && config?.compilerOptions.tsBuildInfoFile) rmSync(config.compilerOptions.tsBuildInfoFile, { force: true })

  mkdirSync(dirname(STAMP), { recursive: true })
  rmSync(STAMP, { force: true })
  const started = Date.now()
  const tsc = join(root, 'node_modules/typescript/bin/tsc')
  const result = spawnSync(process.execPath, [tsc, '-b', CONFIG], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) return result.status ?? 1
  writeFileSync(STAMP, '')
  // The stamp dates from the build's start: a file saved during the build counts as newer.
  utimesSync(STAMP, new Date(started), new Date(started))
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(build({ force: process.argv.includes('--force') }))
}
