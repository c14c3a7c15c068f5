import { InvalidArgumentError } from 'commander'
import { resolveProfile } from '../../model/profile.js'
import { readProfileFile } from '../profile/file.js'
import { IMPORT_TOKEN_VARIABLE, type ImportOptions } from './run.js'

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

/**
 * The import's options from the command's (the required ones present).
 * @throws Error when the profile file cannot be read or is not a profile.
 */
export function importOptions(options: CommandOptions): ImportOptions {
  const seed = options.anonymise
  return {
    from: options.from!,
    token: options.token!,
    // An id given twice is read once (the state holds one record per id).
    teamIds: unique(options.teamId!),
    policyIds: unique(options.policyId ?? []),
    dimensionIds: unique(options.dimensionId ?? []),
    out: options.out!,
    // `--anonymise` alone is seed 1, as `--seed` defaults to 1.
    anonymise: seed === undefined ? undefined : String(seed === true ? 1 : seed),
    maxRecords: options.maxRecords,
    pageSize: options.pageSize,
    profile: options.profile ? readProfileFile(options.profile) : resolveProfile(),
    timeoutMs: options.timeout,
  }
}

const unique = (ids: string[]) => [...new Set(ids)]
