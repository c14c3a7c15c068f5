import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

/** Builds dist/ once, so the CLI and cross-process tests run the package as it ships. */
export default function buildOnce(): void {
  const root = resolve(import.meta.dirname, '..')
  execFileSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', resolve(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' })
}
