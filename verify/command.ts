import { writeFile } from 'node:fs/promises'
import { InvalidArgumentError, Option, type Command, type CommanderError } from 'commander'
import { DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from './timeouts.js'
import { REPORT_FORMATS, type ReportFormat } from './reporters/formats.js'
import type { Report } from './types.js'

/** Where the command writes and how it ends; the defaults are the process's (tests pass their own). */
export interface VerifyCommandIo {
  stdout(text: string): void
  stderr(text: string): void
  /**
   * Sets the exit code: 0 nothing failed, 1 a check failed, 2 the run could not happen, 3 nothing failed but the
   * deadline skipped checks.
   */
  exit(code: number): void
  /** Colour the pretty report. @default process.stdout.isTTY */
  color: boolean
}

interface CommandOptions {
  baseUrl?: string
  token?: string
  teamId?: string
  policyId?: string
  otherPolicyId?: string
  otherTeamId?: string
  dimensionId?: string
  adminToken?: string
  allowWrites?: boolean
  /** commander files `--no-perm-token` under `permToken` (a `--no-` flag), and defaults it to `true`. */
  permToken?: string | boolean | null
  format: ReportFormat
  replay?: string
  ref?: string[]
  roleToken?: string[]
  out?: string
  profileOut?: string
  timeout: number
  /** Seconds. */
  deadline: number
}

const positiveInteger = (name: string) => (text: string) => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new InvalidArgumentError(`${name} must be a positive integer.`)
  return Number(text)
}

const HELP_AFTER = `
Exit codes: 0 when no check failed, 1 when one did, 2 when the run could not happen (server unreachable,
a token the server rejects, a required option missing), 3 when none failed but the run reached its
--deadline and skipped checks (pass a longer --deadline). Only contract checks fail; dialect and choice
checks report what the server shows and write it into --profile-out.
With --out, the report in --format goes to the file and the readable one to stdout.
Tokens can come from the environment instead of the command line (which CI logs may show):
AGENT_CONSOLE_VERIFY_TOKEN, AGENT_CONSOLE_VERIFY_ADMIN_TOKEN, AGENT_CONSOLE_VERIFY_NO_PERM_TOKEN.

Example:
  agent-console-mock verify --base-url https://staging.example.com --team-id $TEAM --policy-id $POLICY \\
    --format junit --out verify.xml --profile-out profile.json
  agent-console-mock --profile profile.json   # the mock, aligned with what the server showed`

/**
 * Adds `verify` to a commander program: checks a real server against the contract the mock keeps.
 * @example registerVerifyCommand(program); await program.parseAsync()
 */
export function registerVerifyCommand(program: Command, io: Partial<VerifyCommandIo> = {}): Command {
  const out = { ...processIo(), ...io }
  const command = exitTwoOnUsageErrors(program.command('verify'), out)
  return (
    command
      .description(
        'Check a real server against the contract the mock keeps: schemas, paging, filters, validation, auth, errors, bulk add, profile and drift.',
      )
      // Required, but checked in the action: a missing one exits 2 as the README promises (commander would exit 1).
      .addOption(
        new Option('--base-url <url>', '(required) the server to check, e.g. https://staging.example.com').env(
          'AGENT_CONSOLE_VERIFY_BASE_URL',
        ),
      )
      .addOption(
        new Option('--token <token>', '(required) a team-scoped token with persona:read and policy:read').env(
          'AGENT_CONSOLE_VERIFY_TOKEN',
        ),
      )
      .option('--team-id <id>', "the token's team (read from its team_id claim, or from its personas, when not given)")
      .option('--policy-id <id>', 'a policy of that team, for the rules checks')
      .option('--other-policy-id <id>', 'a policy of another team, for auth.other-team-policy')
      .option(
        '--other-team-id <id>',
        'a team the token is not of, for auth.other-team (found by --admin-token when it can)',
      )
      .option('--dimension-id <id>', 'a dimension to add values to, for the bulk checks')
      .addOption(
        new Option('--admin-token <token>', 'a super admin token, for the bulk add checks').env(
          'AGENT_CONSOLE_VERIFY_ADMIN_TOKEN',
        ),
      )
      .option('--allow-writes', 'add uniquely named values to --dimension-id (read-only otherwise)')
      .option('--replay <file>', 'replay a recorded contract (GET /__mock/contract) instead of the checks')
      .option('--ref <name=id...>', 'with --replay: the id a reference of the contract stands for, e.g. "team 1=<id>"')
      .option(
        '--role-token <role=token...>',
        'with --replay: the token of a role of the contract, e.g. persona_reader=...',
      )
      .addOption(
        new Option('--no-perm-token <token>', 'a token without persona:read and policy:read')
          .env('AGENT_CONSOLE_VERIFY_NO_PERM_TOKEN')
          .default(null, 'none'),
      )
      .addOption(
        new Option('--format <format>', 'report format (markdown: for a pull-request comment)')
          .choices(REPORT_FORMATS)
          .default('pretty'),
      )
      .option('--out <file>', 'write the report to this file')
      .option('--profile-out <file>', 'write the detected profile as a file for agent-console-mock --profile')
      .option('--timeout <ms>', 'milliseconds each request may take', positiveInteger('--timeout'), DEFAULT_TIMEOUT_MS)
      .option(
        '--deadline <seconds>',
        'seconds the whole run may take: checks left when it passes are skipped, and the run exits 3',
        positiveInteger('--deadline'),
        DEFAULT_DEADLINE_MS / 1000,
      )
      .addHelpText('after', HELP_AFTER)
      .action((options: CommandOptions) => runVerify(options, out))
  )
}

/**
 * Ends a command on a mistake in its command line (an unknown option, a value not among the choices, a bad number)
 * with exit code 2, "the run could not happen", as a missing required option does: commander's 1 would read as a
 * failed check. commander printed the mistake already; its error goes on to whoever parses (the CLI ends with the
 * code set here). Help and version still end with 0.
 */
export const exitTwoOnUsageErrors = (command: Command, io: Pick<VerifyCommandIo, 'exit'>): Command =>
  command.exitOverride((error) => {
    io.exit(error.exitCode === 0 ? 0 : 2)
    throw new CommandLineEnded(error)
  })

/** A command ended by commander (help shown, or a mistake printed): nothing more to say, the exit code is set. */
export class CommandLineEnded extends Error {
  override name = 'CommandLineEnded'
  /** commander's own error (`code` such as `commander.unknownOption`). */
  constructor(readonly commander: CommanderError) {
    super(commander.message)
  }
}

const REQUIRED = [
  ['baseUrl', '--base-url <url> (or AGENT_CONSOLE_VERIFY_BASE_URL)'],
  ['token', '--token <token> (or AGENT_CONSOLE_VERIFY_TOKEN)'],
] as const

async function runVerify(options: CommandOptions, io: VerifyCommandIo): Promise<void> {
  // A replay asks with the tokens of the roles its contract names: --token is one of them, not required.
  const required = options.replay ? REQUIRED.slice(0, 1) : REQUIRED
  const missing = required.filter(([name]) => !options[name]).map(([, option]) => option)
  if (missing.length) {
    io.stderr(
      `agent-console-mock verify: missing required option${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}; see --help.\n`,
    )
    return io.exit(2)
  }
  let report: Report
  try {
    report = options.replay ? await replayOf(options) : await verifyOf(options)
  } catch (error) {
    // The library's errors name its options (`baseUrl`); on the command line they are flags.
    const message = (error as Error).message.replace(/^baseUrl\b/, '--base-url')
    io.stderr(`agent-console-mock verify: ${message}\n`)
    return io.exit(2)
  }
  await writeOutputs(report, options, io)
  if (report.cutShort) io.stderr(`agent-console-mock verify: ${deadlineSentence(report.cutShort)}\n`)
  io.exit(exitCodeOf(report))
}

/**
 * 1 when a check failed: a failure is a verdict even on a run cut short. 3 when none did but the deadline skipped
 * checks: what they would have judged is unknown, and exiting 0 would tell CI the server was verified.
 */
function exitCodeOf(report: Report): number {
  if (!report.ok) return 1
  return report.cutShort ? 3 : 0
}

function deadlineSentence({ deadlineMs, skippedChecks }: NonNullable<Report['cutShort']>): string {
  const count = `${skippedChecks.length} check${skippedChecks.length > 1 ? 's' : ''}`
  return `The run reached its deadline of ${deadlineMs / 1000} s: ${count} ${skippedChecks.length > 1 ? 'were' : 'was'} skipped, so the server was not fully verified; pass --deadline with a longer time (seconds) to run them.`
}

const noPermToken = (options: CommandOptions) => (typeof options.permToken === 'string' ? options.permToken : undefined)

// The verifier, its replay and its reporters are loaded once the command runs: its --help and a mistake in its
// command line load none of them.
const replayOf = async (options: CommandOptions) =>
  (await import('./replay/command.js')).runReplay({
    ...options,
    replay: options.replay!,
    baseUrl: options.baseUrl!,
    noPermToken: noPermToken(options),
    allowWrites: options.allowWrites === true,
  })

async function verifyOf(options: CommandOptions): Promise<Report> {
  const { verify } = await import('./runner.js')
  return verify({
    baseUrl: options.baseUrl!,
    token: options.token!,
    teamId: options.teamId,
    policyId: options.policyId,
    otherPolicyId: options.otherPolicyId,
    otherTeamId: options.otherTeamId,
    dimensionId: options.dimensionId,
    adminToken: options.adminToken,
    allowWrites: options.allowWrites === true,
    noPermToken: noPermToken(options),
    timeoutMs: options.timeout,
    deadlineMs: options.deadline * 1000,
  })
}

async function writeOutputs(report: Report, options: CommandOptions, io: VerifyCommandIo): Promise<void> {
  const { formatPretty, formatReport } = await import('./reporters/index.js')
  if (options.out) {
    await writeFile(options.out, formatReport(report, options.format))
    io.stdout(formatPretty(report, { color: io.color }))
  } else {
    io.stdout(formatReport(report, options.format, { color: io.color }))
  }
  if (options.profileOut) await writeFile(options.profileOut, `${JSON.stringify(report.profile.settings, null, 2)}\n`)
}

function processIo(): VerifyCommandIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    exit: (code) => void (process.exitCode = code),
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  }
}
