import { resolveProfile } from '../../model/profile.js'
import { readProfileFile } from '../profile/file.js'
import type { CommandOptions } from './options.js'
import type { ImportOptions } from './run.js'

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
