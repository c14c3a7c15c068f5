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
  const { dimensions, tokens } = fixtures()
  const result = await verifyCli(['--base-url', running.url], {
    ...tokenEnv(tokens.team_reader),
    AGENT_CONSOLE_VERIFY_ADMIN_TOKEN: tokens.team_reader,
  })
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(
    /The server does not take --admin-token as a super admin \(403 "Super admin permission required" to a bulk add of a dimension that does not exist; pass --dimension-id if that is why\)\.\n$/,
  )
  const toItsDimension = await verifyCli(['--base-url', running.url, '--dimension-id', dimensions[0]!.id], {
    ...tokenEnv(tokens.team_reader),
    AGENT_CONSOLE_VERIFY_ADMIN_TOKEN: tokens.team_reader,
  })
  expect(toItsDimension.code).toBe(2)
  expect(toItsDimension.stderr).toMatch(
    /The server does not take --admin-token as a super admin \(403 "Super admin permission required" to a bulk add\)\.\n$/,
  )
})

it('stops with exit 2 and one sentence when the token cannot read the rules of --policy-id', async () => {
  const { policies, teams, tokens } = fixtures()
  const other = policies.find((policy) => policy.team_id !== teams[0]!.id)!.id
  for (const policyId of [other, '00000000-0000-4000-8000-000000000000']) {
    const result = await verifyCli(['--base-url', running.url, '--policy-id', policyId], tokenEnv(tokens.team_reader))
    expect(result.code, policyId).toBe(2)
    expect(result.stderr).toBe(
      `agent-console-mock verify: The server refuses the rules of --policy-id ${policyId} to --token (404 "Policy not found"); ` +
        "pass a policy of the token's team, or leave --policy-id out to skip the rules checks.\n",
    )
    expect(result.stdout).toBe('')
  }
})

it('stops with exit 2 when --other-policy-id is not a UUID, or --dimension-id is unknown with writes allowed', async () => {
  const { tokens } = fixtures()
  const unknown = '00000000-0000-4000-8000-000000000000'
  const env = { ...tokenEnv(tokens.team_reader), AGENT_CONSOLE_VERIFY_ADMIN_TOKEN: tokens.super_admin }
  const policy = await verifyCli(['--base-url', running.url, '--other-policy-id', 'not-a-uuid'], env)
  expect(policy.code).toBe(2)
  expect(policy.stderr).toMatch(
    /^agent-console-mock verify: The server does not find --other-policy-id not-a-uuid even for --admin-token \(422[^)]*\): it is not a UUID; pass a policy of another team than the token's, or leave --other-policy-id out to skip auth\.other-team-policy\.\n$/,
  )
  // A super admin may be scoped to its own team (the description never gives it other teams' policies): an id it
  // does not find is no reason to stop; auth.other-team-policy says it could not be confirmed.
  const scoped = await verifyCli(['--base-url', running.url, '--other-policy-id', unknown], env)
  expect(scoped.code).toBe(0)
  expect(scoped.stdout).toMatch(/could not be confirmed a policy of another team/)
  const dimension = await verifyCli(['--base-url', running.url, '--dimension-id', unknown, '--allow-writes'], env)
  expect(dimension.code).toBe(2)
  expect(dimension.stderr).toMatch(
    /^agent-console-mock verify: The server does not find --dimension-id \S+ \(404 "Dimension not found"\); pass a dimension that exists and is kept for tests \(the API cannot list dimensions\), or leave --dimension-id out to skip the bulk checks\.\n$/,
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
