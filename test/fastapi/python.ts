import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The two real FastAPI generations the tests compare the mock with, and how to run a folder's app under each:
 * - `fastapi092`: Debian 12's FastAPI 0.92 + pydantic 1.10, `/usr/bin/python3` (the `python3` on PATH may be
 *   another interpreter);
 * - `fastapi0115`: Debian trixie's FastAPI 0.115 + pydantic 2.10 + starlette 0.46 on Python 3.13, in a chroot
 *   that `scripts/fastapi-trixie.sh` makes once (root only). The chroot cannot see the project: each start copies
 *   the app's `.py` files into a fresh folder of the chroot's /tmp, removed again by `cleanup()`.
 */
export interface FastApiRuntime {
  /** What a skipped test names. */
  readonly name: string
  /** Why apps cannot run under it here (with what to do), or undefined when they can. */
  unavailable(): string | undefined
  /** The command running `python3 <args>` with `appDir`'s app importable from `dir` (a folder of the runtime). */
  prepare(appDir: string): PreparedApp
}

export interface PreparedApp {
  command: string
  /** Arguments before python's own (`-m uvicorn ...`). */
  prefix: string[]
  /** The app's folder as the interpreter sees it. */
  dir: string
  cleanup(): void
}

/** Why `command args -c 'import fastapi, uvicorn, jwt'` fails, or undefined when it works. */
function probe(command: string, args: string[]): string | undefined {
  const run = spawnSync(command, [...args, '-c', 'import fastapi, uvicorn, jwt'], { encoding: 'utf8', timeout: 15_000 })
  if (run.status === 0) return undefined
  return run.error ? run.error.message : (run.stderr.trim().split('\n').pop() ?? `exit ${run.status}`)
}

/**
 * Why the reference apps cannot run under Debian 12's FastAPI here, or undefined when they can: `python` (Debian's
 * interpreter, the one python3-fastapi installs into) must import fastapi, uvicorn and jwt.
 */
export function fastApiUnavailable(python = '/usr/bin/python3'): string | undefined {
  const why = probe(python, [])
  return (
    why &&
    `${python} cannot import fastapi, uvicorn and jwt (${why}): run \`apt-get install -y python3-fastapi python3-uvicorn python3-jwt\``
  )
}

export const fastapi092: FastApiRuntime = {
  name: "FastAPI 0.92 + pydantic 1 (Debian 12's /usr/bin/python3)",
  unavailable: () => fastApiUnavailable(),
  prepare: (appDir) => ({ command: '/usr/bin/python3', prefix: [], dir: appDir, cleanup: () => {} }),
}

/** The chroot's folder: $FASTAPI_TRIXIE, by default ~/.cache/agent-console-mock/trixie (as the script makes it). */
export const trixieRoot = (): string =>
  process.env['FASTAPI_TRIXIE'] ??
  join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'agent-console-mock', 'trixie')

/** Each chroot's probe, once per process: the tests ask before every describe block. */
const trixieProbes = new Map<string, string | undefined>()

export const fastapi0115: FastApiRuntime = {
  name: "FastAPI 0.115 + pydantic 2 (Debian trixie's, in a chroot)",
  unavailable() {
    const root = trixieRoot()
    if (!trixieProbes.has(root)) {
      const why =
        process.getuid?.() !== 0 ? 'entering a chroot needs root' : probe('/usr/sbin/chroot', [root, 'python3'])
      trixieProbes.set(
        root,
        why && `no FastAPI 0.115 chroot at ${root} (${why}): run \`bash scripts/fastapi-trixie.sh\` as root`,
      )
    }
    return trixieProbes.get(root)
  },
  prepare(appDir) {
    const root = trixieRoot()
    const folder = mkdtempSync(join(root, 'tmp', 'agent-console-mock-'))
    for (const file of readdirSync(appDir).filter((name) => name.endsWith('.py')))
      cpSync(join(appDir, file), join(folder, file))
    return {
      command: '/usr/sbin/chroot',
      prefix: [root, 'python3'],
      dir: folder.slice(root.length),
      cleanup: () => rmSync(folder, { recursive: true, force: true }),
    }
  },
}
