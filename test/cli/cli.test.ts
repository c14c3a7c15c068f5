import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'

const cli = resolve(import.meta.dirname, '../../dist/server/cli.js')
const folder = mkdtempSync(join(tmpdir(), 'acm-cli-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * Each test starts the CLI up to three times, each start with a 20 s hang guard of its own:
 * the test's timeout leaves room for them all, so that a hang fails with the guard's message.
 */
const CLI_TEST_TIMEOUT_MS = 90_000

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 20_000 })

/** Starts the CLI, waits for its banner, and gives the URL and a way to stop it. */
async function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const url = await new Promise<string>((resolvePromise, reject) => {
    // A hang guard, not a bound on start-up time.
    const timer = setTimeout(() => reject(new Error(`no banner within 20 s:\n${output}`)), 20_000)
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[1]!)
      }
    })
  })
  // Resolves once the process has exited and its output is closed: output() is then all it ever printed.
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<number | null>((resolvePromise) => {
      child.once('close', (code) => resolvePromise(code))
      child.kill(signal)
    })
  return { url, stop, output: () => output }
}

it(
  'prints help with every option',
  () => {
    const { status, stdout } = run(['--help'])
    expect(status).toBe(0)
    for (const option of [
      '--port',
      '--host',
      '--seed',
      '--personas',
      '--profile',
      '--delay',
      '--state-file',
      '--quiet',
      '--no-control',
      'PORT',
    ])
      expect(stdout).toContain(option)
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'prints its version',
  () => {
    expect(run(['--version']).stdout.trim()).toBe('0.1.0')
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'names a mistyped command, with the nearest one, and answers help [command]',
  () => {
    const mistyped = run(['verfy', '--base-url', 'http://127.0.0.1:9'])
    expect([mistyped.status, mistyped.stdout]).toEqual([1, ''])
    expect(mistyped.stderr).toBe(
      "agent-console-mock: unknown command 'verfy' (did you mean verify?); the commands are verify, proxy, import, help, and the server's options start with - (see --help).\n",
    )
    expect(run(['foo']).stderr).toMatch(/^agent-console-mock: unknown command 'foo'; the commands are /)
    const help = run(['help', 'verify'])
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/^Usage: agent-console-mock verify \[options\]/)
    expect(run(['help']).stdout).toMatch(/^Usage: agent-console-mock \[options\] \[command\]/)
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  "ends verify and import on a mistake in their command line with 2, the run that could not happen, not a check's 1",
  () => {
    const mistakes = [
      ['verify', '--base-url', 'http://127.0.0.1:9', '--token', 't', '--format', 'xml'],
      ['verify', '--bogus'],
      ['verify', '--timeout', 'abc'],
      ['import', '--bogus'],
      ['import', '--page-size', '0'],
    ]
    for (const args of mistakes) {
      const ended = run(args)
      expect([ended.status, ended.stdout], args.join(' ')).toEqual([2, ''])
      expect(ended.stderr, 'commander says it once').toMatch(/^error: [^\n]+\n$/)
    }
    expect(run(['verify', '--help']).status).toBe(0)
  },
  CLI_TEST_TIMEOUT_MS,
)

/** The modules a run of the CLI loads, as Node's module hooks see them (`module.register`, a public API). */
function loadedBy(args: string[]): string[] {
  const list = join(folder, `loaded-${args.join('-').replace(/\W+/g, '_')}.txt`)
  const hooks = join(folder, 'hooks.mjs')
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context) }`,
  )
  const register = join(folder, 'register.mjs')
  writeFileSync(register, `import { register } from 'node:module'\nregister(${JSON.stringify(`file://${hooks}`)})`)
  spawnSync(process.execPath, ['--import', register, cli, ...args], { encoding: 'utf8', timeout: 20_000 })
  return readFileSync(list, 'utf8').split('\n').filter(Boolean)
}

/** What a command line that starts no server must not load: the server, an instance, a world, msw, Faker, Express. */
const THE_MOCK =
  /\/dist\/(server\/start|server\/app|model\/world|core\/instance\/instance)\.js$|\/node_modules\/(msw|@msw\/data|@faker-js\/faker|express)\//

it(
  'loads only what a command line needs: help, version and mistakes no mock or verifier, verify no mock',
  () => {
    for (const args of [['--help'], ['--version'], ['--port', 'abc'], ['verify', '--help'], ['import', '--bogus']]) {
      const loaded = loadedBy(args)
      expect(
        loaded.some((url) => url.endsWith('/dist/server/cli.js')),
        'the hooks saw the CLI',
      ).toBe(true)
      expect(
        loaded.filter((url) => THE_MOCK.test(url) || url.includes('/dist/verify/runner.js')),
        args.join(' '),
      ).toEqual([])
    }
    // verify against no server: the verifier runs, and nothing of the mock comes along.
    const verifying = loadedBy(['verify', '--base-url', 'http://127.0.0.1:9', '--token', 't'])
    expect(verifying.some((url) => url.endsWith('/dist/verify/runner.js'))).toBe(true)
    expect(verifying.filter((url) => THE_MOCK.test(url))).toEqual([])
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'refuses a bad option value with a message and exit code 1',
  () => {
    const bad = run(['--port', 'abc'])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('--port must be an integer from 0 to 65535')
    const profile = join(folder, 'bad-profile.json')
    writeFileSync(profile, '{"timestampUnit": "minutes"}')
    const badProfile = run(['--profile', profile])
    expect(badProfile.status).toBe(1)
    expect(badProfile.stderr).toContain(`the profile ${profile}: `)
    expect(badProfile.stderr).toContain('timestampUnit')
    writeFileSync(profile, '{timestampUnit: "ms"}')
    const notJson = run(['--profile', profile])
    expect(notJson.status).toBe(1)
    expect(notJson.stderr).toMatch(
      /^agent-console-mock: the profile .+ is not JSON \(.+\): give a JSON object of settings, as verify --profile-out writes it \(docs\/profile\.md\)\.\n$/,
    )
    const emptyState = run(['--state-file', ' '])
    expect(emptyState.status).toBe(1)
    expect(emptyState.stderr).toContain('--state-file is empty: name the file')
    const state = join(folder, 'compact-at', 'state.json')
    const badCompactAt = run(['--port', '0', '--state-file', state], { AGENT_CONSOLE_MOCK_COMPACT_AT: 'abc' })
    expect(badCompactAt.status).toBe(1)
    expect(badCompactAt.stderr).toContain('AGENT_CONSOLE_MOCK_COMPACT_AT must be a whole number of bytes')
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'starts on loopback, prints a banner with ids and tokens, answers, and stops on SIGTERM',
  async () => {
    const server = await start(['--port', '0', '--seed', '3', '--personas', '7'])
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as {
        teams: Array<{ id: string }>
        policies: Array<{ id: string }>
        dimensions: Array<{ id: string }>
        tokens: Record<string, string>
      }
      const banner = server.output()
      for (const id of [...fixtures.teams, ...fixtures.policies, ...fixtures.dimensions].map((record) => record.id))
        expect(banner).toContain(id)
      for (const token of Object.values(fixtures.tokens)) expect(banner).toContain(token)
      expect(banner).toContain(`${server.url}/docs`)
      const listed = await fetch(`${server.url}/v1/personas/`, {
        headers: { authorization: `Bearer ${fixtures.tokens.team_reader}` },
      })
      expect(((await listed.json()) as { total: number }).total).toBe(7)
      // The log line comes after the answer; the poll's timeout is a hang guard.
      await expect.poll(() => server.output(), { timeout: 20_000 }).toMatch(/GET \/v1\/personas\/ 200 \d+\.\dms/)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'takes the port from PORT, logs nothing per request with --quiet, and never prints a custom secret',
  async () => {
    const probe = await start(['--port', '0'])
    const port = new URL(probe.url).port
    await probe.stop()
    const server = await start(['--quiet'], {
      PORT: port,
      AGENT_CONSOLE_MOCK_JWT_SECRET: 'a-very-private-secret-value',
    })
    let stopped = false
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`)
      await (await fetch(`${server.url}/v1/personas/`)).arrayBuffer()
      // Everything the process printed is known once it has exited and closed its output, however
      // long a log line would have taken to come.
      expect(await server.stop('SIGINT')).toBe(0)
      stopped = true
      expect(server.output()).not.toMatch(/GET \/v1\/personas\//)
      expect(server.output()).not.toContain('a-very-private-secret-value')
    } finally {
      if (!stopped) await server.stop('SIGKILL')
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'exits with a clear message when the port is taken',
  async () => {
    const server = await start(['--port', '0'])
    try {
      const port = new URL(server.url).port
      const taken = run(['--port', port])
      expect(taken.status).toBe(1)
      expect(taken.stderr).toBe(
        `agent-console-mock: port ${port} on 127.0.0.1 is in use (EADDRINUSE): stop what listens there, or choose another port (\`port\`, --port or PORT; 0 takes any free one).\n`,
      )
      const elsewhere = run(['--port', '0', '--host', '192.0.2.1'], { AGENT_CONSOLE_MOCK_JWT_SECRET: 'cli-test' })
      expect(elsewhere.status).toBe(1)
      expect(elsewhere.stderr).toContain(
        '192.0.2.1 is no address of this machine (EADDRNOTAVAIL): pass another --host.',
      )
    } finally {
      await server.stop()
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'forwards a --forward prefix to a real server, and refuses one it cannot use',
  async () => {
    const real = createServer((req, res) => res.writeHead(202, { 'x-real': 'yes' }).end(`real ${req.url}`))
    real.listen(0, '127.0.0.1')
    await once(real, 'listening')
    const realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`
    const server = await start(['--port', '0', '--forward', `/v1/agents=${realUrl}`, '--answer-timeout', '5000'])
    try {
      const answer = await fetch(`${server.url}/v1/agents/7?x=1`)
      expect([answer.status, answer.headers.get('x-real'), await answer.text()]).toEqual([
        202,
        'yes',
        'real /v1/agents/7?x=1',
      ])
      expect((await fetch(`${server.url}/v1/personas/`)).status, 'the mock answers the rest').toBe(401)
    } finally {
      expect(await server.stop()).toBe(0)
      real.close()
    }
    expect(server.output()).toContain(`forwarded: /v1/agents -> ${realUrl}`)
    const unprefixed = run(['--forward', `v1/agents=${realUrl}`])
    expect([unprefixed.status, unprefixed.stderr]).toEqual([
      1,
      `agent-console-mock: forward: the path prefix "v1/agents" must start with "/", e.g. /v1/agents=${realUrl}\n`,
    ])
    const bare = run(['--forward', '/v1/agents'])
    expect(bare.stderr).toContain('--forward takes <path prefix>=<url>, e.g. /v1/agents=http://127.0.0.1:8000')
  },
  CLI_TEST_TIMEOUT_MS,
)
