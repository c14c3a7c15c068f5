import { existsSync } from 'node:fs'
import { Option, type Command } from 'commander'
import { DEFAULT_TIMEOUT_MS } from '../timeouts.js'
import { exitTwoOnUsageErrors } from '../command.js'
import { IMPORT_TOKEN_VARIABLE, integer, missingOptions, type CommandOptions } from './options.js'
import type { ImportSummary } from './run.js'

/** Where the command writes and how it ends; the defaults are the process's. */
interface ImportCommandIo {
  stdout(text: string): void
  stderr(text: string): void
  /** Sets the exit code: 0 written, 2 the import could not happen (nothing written). */
  exit(code: number): void
  /** Progress rewrites one line on a terminal, and writes a line per 10,000 records elsewhere. */
  terminal: boolean
}

/** The bound of an import unless told otherwise: a large world's state, which the mock still loads quickly. */
const DEFAULT_MAX_RECORDS = 200_000

const HELP_AFTER = `
Read-only: only GET requests. Exit codes: 0 the state file was written (a --max-records cut says so on stderr
and still writes the records read), 2 the import could not happen and nothing was written (server unreachable,
an answer that is not a page, a token the server rejects, records the mock cannot hold, a missing option).
The token can come from ${IMPORT_TOKEN_VARIABLE} instead of the command line; it is never printed.

Example:
  agent-console-mock import --from https://staging.example.com --team-id $TEAM --policy-id $POLICY \\
    --profile mock-profile.json --anonymise 42 --out staging.json
  agent-console-mock --state-file staging.json   # the mock, serving the imported world`

/**
 * Adds `import` to a commander program: reads what the API can read into a state file the mock loads.
 * @example registerImportCommand(program); await program.parseAsync()
 */
export function registerImportCommand(program: Command, io: Partial<ImportCommandIo> = {}): Command {
  const out = { ...processIo(), ...io }
  return (
    exitTwoOnUsageErrors(program.command('import'), out)
      .description("Read teams' personas and policies' rules from a real server into a state file the mock loads.")
      // Required, but checked in the action: a missing one exits 2, as verify's do.
      .option('--from <url>', '(required) the server to read, e.g. https://staging.example.com')
      .addOption(
        new Option('--token <token>', '(required) a token with persona:read and policy:read').env(
          IMPORT_TOKEN_VARIABLE,
        ),
      )
      .option('--team-id <id...>', '(required) the teams whose personas to read')
      .option('--policy-id <id...>', 'policies whose rules to read (the API cannot list policies)')
      .option('--dimension-id <id...>', 'dimensions to create, without values (the API cannot read them)')
      .option('--out <file>', '(required) the state file to write')
      .option(
        '--anonymise [seed]',
        'replace names and free text by fakes of this seed (default 1)',
        integer('--anonymise', 0, Number.MAX_SAFE_INTEGER),
      )
      .option(
        '--max-records <n>',
        'read at most this many records in all; past it the import is cut',
        integer('--max-records', 1, 10_000_000),
        DEFAULT_MAX_RECORDS,
      )
      .option(
        '--page-size <n>',
        'records per page (capped by the profile bounds)',
        integer('--page-size', 1, 1000),
        100,
      )
      .option('--profile <file>', "the server's profile file (verify --profile-out): rules paging names, timestamps")
      .option(
        '--timeout <ms>',
        'milliseconds each request may take',
        integer('--timeout', 1, 3_600_000),
        DEFAULT_TIMEOUT_MS,
      )
      .addHelpText('after', HELP_AFTER)
      .action((options: CommandOptions) => importAction(options, out))
  )
}

async function importAction(options: CommandOptions, io: ImportCommandIo): Promise<void> {
  const fail = (message: string) => {
    io.stderr(`agent-console-mock import: ${message}\n`)
    io.exit(2)
  }
  const missing = missingOptions(options)
  if (missing.length > 0)
    return fail(`missing required option${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}; see --help.`)
  let summary: ImportSummary
  try {
    // Loaded once the command runs: its --help and a mistake in its command line load no importer.
    const [{ importOptions }, { Progress }, { runImport }] = await Promise.all([
      import('./import-options.js'),
      import('./progress.js'),
      import('./run.js'),
    ])
    summary = await runImport(importOptions(options), new Progress(io.stderr, io.terminal))
  } catch (error) {
    const { name, message } = error as Error
    return fail(name === 'RequestTimeoutError' ? `${message} (${(error as { request: string }).request}).` : message)
  }
  report(summary, options, io)
  io.exit(0)
}

function report(summary: ImportSummary, options: CommandOptions, io: ImportCommandIo): void {
  if (summary.cut.length > 0)
    io.stderr(`Cut at --max-records ${options.maxRecords}: ${summary.cut.join(', ')} not read whole.\n`)
  if (summary.changed.length > 0)
    io.stderr(`The total of ${summary.changed.join(', ')} changed during the crawl: import again for an exact copy.\n`)
  // A mock that served the file before keeps its changes in <file>.log, which the new file does not follow.
  if (existsSync(`${options.out}.log`))
    io.stderr(
      `Note: remove ${options.out}.log (a mock's changes to the file replaced) before serving ${options.out}.\n`,
    )
  const { teams, policies, dimensions } = summary
  io.stdout(
    `Wrote ${options.out}: ${teams} team(s) with ${summary.personas} persona(s), ` +
      `${policies} polic${policies === 1 ? 'y' : 'ies'} with ${summary.rules} rule(s)` +
      `${dimensions ? `, ${dimensions} dimension(s) without values (the API cannot read them)` : ''}` +
      `${options.anonymise === undefined ? '' : ', anonymised'}.\n` +
      `Serve it: agent-console-mock --state-file ${options.out}\n`,
  )
}

function processIo(): ImportCommandIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    exit: (code) => void (process.exitCode = code),
    terminal: process.stderr.isTTY === true,
  }
}
