import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { mintToken } from 'agent-console-mock'
import type { VerifyOptions } from '../../verify/index.js'
import { fastapi092, fastApiUnavailable, type FastApiRuntime } from './python.js'

export { fastApiUnavailable }

/**
 * Starts the reference FastAPI app (test/fastapi/app.py, FastAPI 0.92 + pydantic 1.10 from Debian, or
 * FastAPI 0.115 + pydantic 2 in Debian trixie's chroot: python.ts) under uvicorn on a free loopback port,
 * for tests that need a real FastAPI server.
 */

const APP_DIR = resolve(import.meta.dirname)
const START_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 5_000

/** The ids the app seeded, as its start-up line prints them. */
interface FastApiIds {
  teams: { primary: string; other: string; empty: string }
  users: { reader: string; other_reader: string; admin: string; nobody: string }
  policies: { primary: string; small: string; other_team: string }
  dimensions: { primary: string; other: string }
  counts: {
    personas: Record<'primary' | 'other' | 'empty', number>
    rules: Record<'primary' | 'small' | 'other_team', number>
  }
}

export interface StartFastApiOptions {
  /** Names from the VARIANTS table of app.py, e.g. `['bug:offset-ignored', 'legit:bulk-200']`. */
  variants?: readonly string[]
  /** The HS256 secret the app checks tokens with. @default a fixed test secret */
  secret?: string
  /** Which FastAPI runs it. @default fastapi092 */
  runtime?: FastApiRuntime
}

export interface RunningFastApi {
  /** `http://127.0.0.1:<port>`. */
  url: string
  ids: FastApiIds
  /** The variants it runs with. */
  variants: string[]
  /** Every name of app.py's VARIANTS table. */
  knownVariants: string[]
  secret: string
  /** What uvicorn wrote on stderr so far (warnings and errors only). */
  stderr(): string
  /** Stops uvicorn and its process group; resolves once it has exited. */
  stop(): Promise<void>
}

export const DEFAULT_SECRET = 'reference-fastapi-test-secret'

/** Every group still running, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((done) => server.close(done))
  return port
}

/**
 * Spawns `/usr/bin/python3 -m uvicorn app:app` on a free 127.0.0.1 port, waits for the ids line and
 * for the first HTTP answer, and returns the server. A port taken between the choice and the bind is
 * retried on another one.
 * @throws Error when fastapi is missing (with the apt-get line), or when the app does not start.
 * @example const server = await startFastApi({ variants: ['legit:bulk-200'] }); try { ... } finally { await server.stop() }
 */
export async function startFastApi(options: StartFastApiOptions = {}): Promise<RunningFastApi> {
  const unavailable = (options.runtime ?? fastapi092).unavailable()
  if (unavailable) throw new Error(unavailable)
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options, await freePort())
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenError)) throw error
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(options: StartFastApiOptions, port: number): Promise<RunningFastApi> {
  const secret = options.secret ?? DEFAULT_SECRET
  const variants = [...(options.variants ?? [])]
  const app = (options.runtime ?? fastapi092).prepare(APP_DIR)
  const child = spawn(
    app.command,
    [
      ...app.prefix,
      '-m',
      'uvicorn',
      'app:app',
      '--app-dir',
      app.dir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      'warning',
      '--no-access-log',
    ],
    {
      // A clean environment: no PYTHONPATH/PYTHONHOME of another interpreter, no bytecode in the tree.
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        LANG: 'C.UTF-8',
        JWT_SECRET: secret,
        VARIANTS: variants.join(','),
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONUNBUFFERED: '1',
      },
      cwd: APP_DIR,
      detached: true, // its own process group, so stop() reaches every process it starts
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  running.add(child)
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000)
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  void exited.then(() => {
    running.delete(child)
    app.cleanup()
  })
  const stop = async () => {
    killGroup(child, 'SIGTERM')
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }
  const url = `http://127.0.0.1:${port}`
  try {
    const line = await withTimeout(startupLine(child, exited), 'the start-up line with the seeded ids')
    await withTimeout(firstAnswer(url, exited), `a first HTTP answer from ${url}`)
    return {
      url,
      ids: line.ids,
      variants: line.variants,
      knownVariants: line.known,
      secret,
      stderr: () => stderr,
      stop,
    }
  } catch (error) {
    await stop()
    if (/address already in use|Errno 98/i.test(stderr)) throw new PortTakenError(stderr)
    throw new Error(
      `the reference FastAPI app did not start (${(error as Error).message}); uvicorn's stderr:\n${stderr.trim() || '(empty)'}`,
    )
  }

  async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${what} within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
    })
    try {
      return await Promise.race([promise, timeout])
    } finally {
      clearTimeout(timer)
    }
  }
}

interface StartupLine {
  ids: FastApiIds
  variants: string[]
  known: string[]
}

/** The first stdout line that is `{"ids": ..., "variants": [...], "known": [...]}`. */
async function startupLine(child: ChildProcess, exited: Promise<void>): Promise<StartupLine> {
  const lines = createInterface({ input: child.stdout! })
  const found = new Promise<StartupLine>((resolveLine) => {
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as Partial<StartupLine>
        if (parsed.ids && Array.isArray(parsed.variants) && Array.isArray(parsed.known))
          resolveLine({ ids: parsed.ids, variants: parsed.variants, known: parsed.known })
      } catch {
        // another line
      }
    })
  })
  return Promise.race([
    found,
    exited.then(() =>
      Promise.reject(new Error(`uvicorn exited with ${child.exitCode ?? child.signalCode} before printing the ids`)),
    ),
  ])
}

/** Polls until the server answers anything over HTTP (FastAPI's 404 for `/` counts). */
async function firstAnswer(url: string, exited: Promise<void>): Promise<void> {
  let gone = false
  void exited.then(() => (gone = true))
  for (;;) {
    if (gone) throw new Error('uvicorn exited before answering')
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) })
      return
    } catch {
      await new Promise((done) => setTimeout(done, 50))
    }
  }
}

/** Tokens for the seeded users, signed with the server's secret by the mock's own `mintToken`. */
export interface FastApiTokens {
  /** Team primary, persona:read + policy:read. */
  reader: string
  /** Team other, persona:read + policy:read. */
  otherReader: string
  /** Super admin, no team. */
  admin: string
  /** Team primary, no permission. */
  noPermission: string
}

export async function fastApiTokens(server: RunningFastApi): Promise<FastApiTokens> {
  const { teams, users } = server.ids
  const read = ['persona:read', 'policy:read']
  return {
    reader: await mintToken({ sub: users.reader, team_id: teams.primary, permissions: read }, server.secret),
    otherReader: await mintToken({ sub: users.other_reader, team_id: teams.other, permissions: read }, server.secret),
    admin: await mintToken({ sub: users.admin, is_super_admin: true }, server.secret),
    noPermission: await mintToken({ sub: users.nobody, team_id: teams.primary, permissions: [] }, server.secret),
  }
}

/** Everything verify can be given about the app: its seeded ids and tokens, writes allowed. */
export function verifyOptionsFor(
  server: RunningFastApi,
  tokens: FastApiTokens,
  extra: Partial<VerifyOptions> = {},
): VerifyOptions {
  return {
    baseUrl: server.url,
    token: tokens.reader,
    teamId: server.ids.teams.primary,
    policyId: server.ids.policies.primary,
    dimensionId: server.ids.dimensions.primary,
    adminToken: tokens.admin,
    noPermToken: tokens.noPermission,
    allowWrites: true,
    ...extra,
  }
}
