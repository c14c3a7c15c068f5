import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * Builds dist/ once per run, so the CLI and cross-process tests run the package as it ships.
 * The same build as `npm start` (scripts/build.mjs, esbuild: well under a second).
 */
export default function buildOnce(): void {
  build([])
}

/**
 * The process tier packs the package (`npm pack` runs `npm run build`, declarations included):
 * built once here, tsc's incremental check in each pack finds nothing left to do, and two tests
 * packing at once do not both write every `.d.ts`.
 */
export function buildPackageOnce(): void {
  build(['--declarations'])
}

function build(args: string[]): void {
  const root = resolve(import.meta.dirname, '..')
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs'), ...args], { cwd: root, stdio: 'inherit' })
}
