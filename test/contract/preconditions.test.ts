import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { mintToken } from '../../model/auth/tokens.js'
import type { RunningServer } from '../../server/start.js'
import { startMock } from './support/mock.js'

/**
 * What must hold before any verdict, through the built CLI (the test run's global setup builds
 * dist/): a token the server rejects, or a missing required option, stops the run with exit 2
 * and one sentence on stderr, and no check is reported.
 */
const CLI = resolve(import.meta.dirname, '../../dist/server/cli.js')

let running: RunningServer
beforeAll(async () => {
  running = await startMock()
})
afterAll(() => running.close())

/** Runs `agent-console-mock verify` with the tokens in the environment, as CI would. */
function verifyCli(
  args: string[],
  tokens: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...tokens }
  return new Promise((done) => {
    execFile(process.execPath, [CLI, 'verify', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

const fixtures = () => running.sessions.primary.fixtures
const tokenEnv = (token: string) => ({ AGENT_CONSOLE_VERIFY_TOKEN: token })

it('stops with exit 2 and one sentence when the server rejects an expired token', async () => {
  const result = await verifyCli(['--base-url', running.url], tokenEnv(fixtures().tokens.expired))
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(
    /^agent-console-mock verify: The server rejects --token \(401 "Could not validate credentials"\): it expired on 2026-\S+Z\.\n$/,
  )
  expect(result.stdout).toBe('')
})

it('stops with exit 2 when the token is signed with another secret', async () => {
  const { teams } = fixtures()
  const token = await mintToken(
    { sub: 'someone', team_id: teams[0]!.id, permissions: ['persona:read'] },
    'another-secret',
  )
  const result = await verifyCli(['--base-url', running.url], tokenEnv(token))
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(
    /The server rejects --token \(401 .*\): it is probably signed with another secret than the server's\.\n$/,
  )
})

it('stops with exit 2 when the token has no access to the team', async () => {
  const { teams, tokens } = fixtures()
  const result = await verifyCli(['--base-url', running.url, '--team-id', teams[1]!.id], tokenEnv(tokens.team_reader))
  expect(result.code).toBe(2)
  expect(result.stderr).toBe(
    `agent-console-mock verify: The server refuses --token for team ${teams[1]!.id} (403 "Not authorized for this team"): ` +
      `the token is scoped to team ${teams[0]!.id}; verify needs a token of that team with persona:read and policy:read.\n`,
  )
})

it('stops with exit 2 when the admin token is not a super admin', async () => {
  const { tokens } = fixtures()
  const result = await verifyCli(['--base-url', running.url], {
    ...tokenEnv(tokens.team_reader),
    AGENT_CONSOLE_VERIFY_ADMIN_TOKEN: tokens.team_reader,
  })
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(
    /The server does not take --admin-token as a super admin \(403 "Super admin permission required" to a bulk add\)\.\n$/,
  )
})

it('stops with exit 2 when a required option is missing, naming it', async () => {
  const withoutUrl = await verifyCli([], tokenEnv(fixtures().tokens.team_reader))
  expect(withoutUrl.code).toBe(2)
  expect(withoutUrl.stderr).toBe(
    'agent-console-mock verify: missing required option --base-url <url> (or AGENT_CONSOLE_VERIFY_BASE_URL); see --help.\n',
  )
  const withoutAnything = await verifyCli([])
  expect(withoutAnything.code).toBe(2)
  expect(withoutAnything.stderr).toMatch(
    /missing required options --base-url <url> .* and --token <token> \(or AGENT_CONSOLE_VERIFY_TOKEN\)/,
  )
})

it('runs when the tokens are accepted: exit 0, the report on stdout', async () => {
  const { tokens } = fixtures()
  const result = await verifyCli(['--base-url', running.url, '--format', 'markdown'], tokenEnv(tokens.team_reader))
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/^### agent-console-mock verify: ✅ the server keeps the mock's contract\n/)
})
