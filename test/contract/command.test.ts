import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../server/start.js'
import { resolveProfile } from '../../model/profile.js'
import { registerVerifyCommand } from '../../verify/index.js'
import { runVerifyCommand } from '../support/verify-command.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { closedPort, startMock } from './support/mock.js'
import { findAll, parseXml } from './support/xml.js'
import { emptyBulkCrashes, openApiDelayed } from './variants/crashes.js'

let healthy: RunningServer
let broken: RunningServer
let directory: string

beforeAll(async () => {
  healthy = await startMock({ profile: { bulkAddStatus: 200 } })
  broken = await startMock({
    handlers: BROKEN_VARIANTS.find((variant) => variant.bug === 'intents ignored')!.handlers(
      healthy.sessions.primary.fixtures,
    ),
  })
  directory = await mkdtemp(join(tmpdir(), 'verify-command-'))
})
afterAll(async () => {
  await Promise.all([healthy.close(), broken.close()])
  await rm(directory, { recursive: true, force: true })
})

const run = runVerifyCommand

function argsFor(running: RunningServer): string[] {
  const { fixtures } = running.sessions.primary
  const other = fixtures.policies.find((policy) => policy.team_id !== fixtures.teams[0]!.id)!.id
  return [
    '--base-url',
    running.url,
    '--token',
    fixtures.tokens.team_reader,
    '--policy-id',
    fixtures.policies[0]!.id,
    '--other-policy-id',
    other,
    '--dimension-id',
    fixtures.dimensions[0]!.id,
    '--admin-token',
    fixtures.tokens.super_admin,
    '--no-perm-token',
    fixtures.tokens.no_permissions,
  ]
}

/** The ids of the checks a JSON report failed. */
const failedIn = (report: { checks: Array<{ id: string; status: string }> }) =>
  report.checks.filter((check) => check.status === 'failed').map((check) => check.id)

it('exits 0 against the mock, writes the report where --out says and the profile where --profile-out says', async () => {
  const [out, profile] = [join(directory, 'verify.xml'), join(directory, 'profile.json')]
  const result = await run(
    ...argsFor(healthy),
    '--allow-writes',
    '--format',
    'junit',
    '--out',
    out,
    '--profile-out',
    profile,
  )
  expect(result.exitCode).toBe(0)
  expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/)
  expect(findAll(parseXml(await readFile(out, 'utf8')), 'failure')).toEqual([])
  const written = JSON.parse(await readFile(profile, 'utf8'))
  expect(written.bulkAddStatus).toBe(200)
  expect(resolveProfile(written).bulkAddStatus, 'agent-console-mock --profile loads it').toBe(200)
})

it('exits 1 when a check fails, and prints the report in --format without --out', async () => {
  const result = await run(...argsFor(broken), '--format', 'json')
  expect(result.exitCode).toBe(1)
  const report = JSON.parse(result.stdout)
  expect(failedIn(report)).toEqual(['filters.intents'])
})

it('reads --no-perm-token as a token, and leaves auth.no-permission skipped without it', async () => {
  const given = JSON.parse((await run(...argsFor(healthy), '--format', 'json')).stdout)
  expect(given.checks.find((check: { id: string }) => check.id === 'auth.no-permission').status).toBe('passed')
  const { fixtures } = healthy.sessions.primary
  const without = JSON.parse(
    (await run('--base-url', healthy.url, '--token', fixtures.tokens.team_reader, '--format', 'json')).stdout,
  )
  expect(without.checks.find((check: { id: string }) => check.id === 'auth.no-permission').reason).toMatch(
    /needs --no-perm-token/,
  )
})

it('takes the tokens from the environment, so CI logs never show them', async () => {
  const { fixtures } = healthy.sessions.primary
  const environment = {
    AGENT_CONSOLE_VERIFY_TOKEN: fixtures.tokens.team_reader,
    AGENT_CONSOLE_VERIFY_NO_PERM_TOKEN: fixtures.tokens.no_permissions,
  }
  Object.assign(process.env, environment)
  try {
    const report = JSON.parse((await run('--base-url', healthy.url, '--format', 'json')).stdout)
    expect(report.checks.find((check: { id: string }) => check.id === 'auth.no-permission').status).toBe('passed')
    expect(JSON.stringify(report), 'reports name tokens by role, never by value').not.toContain(
      fixtures.tokens.team_reader,
    )
  } finally {
    for (const name of Object.keys(environment)) delete process.env[name]
  }
})

it('exits 2 with a clear message when the server cannot be reached', async () => {
  const port = await closedPort()
  const result = await run('--base-url', `http://127.0.0.1:${port}`, '--token', 't', '--timeout', '2000')
  expect(result.exitCode).toBe(2)
  expect(result.stderr).toBe(
    `agent-console-mock verify: Cannot reach http://127.0.0.1:${port}: connection refused: is the server running on that port?\n`,
  )
})

it('names its flags, not the library options, and the file --replay could not read', async () => {
  const notUrl = await run('--base-url', 'notaurl', '--token', 't')
  expect([notUrl.exitCode, notUrl.stderr]).toEqual([
    2,
    'agent-console-mock verify: --base-url must be an http(s) URL, not "notaurl"\n',
  ])
  const missing = await run('--base-url', 'http://127.0.0.1:9', '--replay', 'no-such-contract.json')
  expect(missing.exitCode).toBe(2)
  expect(missing.stderr).toMatch(
    /^agent-console-mock verify: cannot read the contract to replay, --replay no-such-contract\.json: ENOENT[^\n]*Give a file saved from GET \/__mock\/contract/,
  )
})

it('explains itself with --help and refuses an unknown format', async () => {
  const ended = (thrown: { commander: { code: string } }) => thrown.commander.code
  expect(await run('--help').catch(ended)).toBe('commander.helpDisplayed')
  const error = await run('--base-url', healthy.url, '--token', 't', '--format', 'xml').catch(ended)
  expect(error).toBe('commander.invalidArgument')
})

it('takes --deadline in seconds, lists it in --help, and refuses one that is not a positive integer', async () => {
  const help = registerVerifyCommand(new Command('agent-console-mock')).helpInformation()
  expect(help).toMatch(/--deadline <seconds>\s+seconds the whole run may take.*\(default: 120\)/s)
  const ended = (thrown: { commander: { code: string; message: string } }) => thrown.commander
  for (const value of ['0', 'abc', '1.5'])
    expect(await run('--base-url', healthy.url, '--token', 't', '--deadline', value).catch(ended)).toMatchObject({
      code: 'commander.invalidArgument',
      message: expect.stringContaining('--deadline must be a positive integer.'),
    })
})

/** Every answer of /openapi.json, the run's first request, comes long after a deadline of one second. */
const PAST_THE_DEADLINE_MS = 2_500

it('exits 3 when the deadline skipped checks and none failed, saying to pass a longer --deadline', {
  timeout: 30_000,
}, async () => {
  const slow = await startMock({ handlers: openApiDelayed(PAST_THE_DEADLINE_MS) })
  try {
    const result = await run(...argsFor(slow), '--allow-writes', '--deadline', '1')
    expect(result.exitCode).toBe(3)
    const skipped = Number(/^0 passed, 0 failed, (\d+) skipped$/.exec(result.stdout.trimEnd().split('\n').at(-1)!)?.[1])
    expect(skipped).toBeGreaterThan(0)
    expect(result.stderr).toBe(
      `agent-console-mock verify: The run reached its deadline of 1 s: ${skipped} checks were skipped, so the server was not fully verified; pass --deadline with a longer time (seconds) to run them.\n`,
    )
    expect(result.stdout).toContain(`the run reached its deadline (1 s) and skipped ${skipped} checks: not verified.`)
  } finally {
    await slow.close()
  }
})

it('exits 1 when a check failed on a run the deadline cut short, and still says what it skipped', {
  timeout: 30_000,
}, async () => {
  const crashing = await startMock({ handlers: [...emptyBulkCrashes(), ...openApiDelayed(PAST_THE_DEADLINE_MS)] })
  try {
    const result = await run(...argsFor(crashing), '--allow-writes', '--deadline', '1', '--format', 'json')
    expect(result.exitCode).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(failedIn(report)).toEqual(['errors.server-error'])
    expect(result.stderr).toMatch(
      /^agent-console-mock verify: The run reached its deadline of 1 s: \d+ checks were skipped/,
    )
  } finally {
    await crashing.close()
  }
})

it('exits 0 on a read-only run without an admin token: skipped for lack of them, not for the deadline', async () => {
  const { fixtures } = healthy.sessions.primary
  const result = await run('--base-url', healthy.url, '--token', fixtures.tokens.team_reader)
  expect(result.exitCode).toBe(0)
  expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, [1-9]\d* skipped$/)
  expect(result.stderr).toBe('')
})
