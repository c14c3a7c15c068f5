import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * Builds dist/ once per run, so the CLI and cross-process tests run the package as it ships.
 * The same build as `npm start` (scripts/build.mjs, esbuild: well under a second).
 */
export default function buildOnce(): void {
  const root = resolve(import.meta.dirname, '..')
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
}
