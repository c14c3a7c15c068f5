import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../server/start.js'
import { resolveProfile } from '../../model/profile.js'
import { runVerifyCommand } from '../support/verify-command.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { closedPort, startMock } from './support/mock.js'
import { findAll, parseXml } from './support/xml.js'

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
  expect(
    report.checks
      .filter((check: { status: string }) => check.status === 'failed')
      .map((check: { id: string }) => check.id),
  ).toEqual(['filters.intents'])
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
