import { Command } from 'commander'
import { registerVerifyCommand, type VerifyOptions } from '../../verify/index.js'

/** What `agent-console-mock verify` printed, and the exit code it set. */
export interface CommandOutput {
  stdout: string
  stderr: string
  exitCode: number | undefined
}

/** Runs `verify` as the CLI registers it, in this process: a tiny program like the CLI's. */
export async function runVerifyCommand(...args: string[]): Promise<CommandOutput> {
  const output: CommandOutput = { stdout: '', stderr: '', exitCode: undefined }
  const program = new Command('agent-console-mock').exitOverride().configureOutput({
    writeOut: (text) => void (output.stdout += text),
    writeErr: (text) => void (output.stderr += text),
  })
  program.option('--profile <file>', 'the server option the real CLI has')
  registerVerifyCommand(program, {
    stdout: (text) => void (output.stdout += text),
    stderr: (text) => void (output.stderr += text),
    exit: (code) => void (output.exitCode = code),
    color: false,
  })
  await program.parseAsync(['verify', ...args], { from: 'user' })
  return output
}

const FLAGS: Partial<Record<keyof VerifyOptions, string>> = {
  baseUrl: '--base-url',
  token: '--token',
  teamId: '--team-id',
  policyId: '--policy-id',
  otherPolicyId: '--other-policy-id',
  otherTeamId: '--other-team-id',
  dimensionId: '--dimension-id',
  adminToken: '--admin-token',
  noPermToken: '--no-perm-token',
}

/** The command line that gives `verify` these options. */
export function verifyArgs(options: VerifyOptions): string[] {
  const given = Object.entries(FLAGS).flatMap(([name, flag]) => {
    const value = options[name as keyof VerifyOptions]
    return typeof value === 'string' ? [flag, value] : []
  })
  return [...given, ...(options.allowWrites ? ['--allow-writes'] : [])]
}
