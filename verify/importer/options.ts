import { InvalidArgumentError } from 'commander'

/**
 * The command line of `import`, light enough for its --help and for a mistake in it to load no importer (the
 * options it becomes: import-options.ts).
 */

/** The environment variable `--token` can come from (failures' messages never show a token). */
export const IMPORT_TOKEN_VARIABLE = 'AGENT_CONSOLE_IMPORT_TOKEN'

/** The options as commander hands them to the action (the required ones are checked there, to exit 2). */
export interface CommandOptions {
  from?: string
  token?: string
  teamId?: string[]
  policyId?: string[]
  dimensionId?: string[]
  out?: string
  anonymise?: number | boolean
  maxRecords: number
  pageSize: number
  profile?: string
  timeout: number
}

/** A parser of an integer option within bounds, for commander. */
export const integer = (name: string, min: number, max: number) => (text: string) => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max)
    throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`)
  return Number(text)
}

const REQUIRED = [
  ['from', '--from <url>'],
  ['token', `--token <token> (or ${IMPORT_TOKEN_VARIABLE})`],
  ['teamId', '--team-id <id...>'],
  ['out', '--out <file>'],
] as const

/** The required options left out, as the help names them. */
export const missingOptions = (options: CommandOptions): string[] =>
  REQUIRED.filter(([name]) => !options[name]).map(([, option]) => option)
