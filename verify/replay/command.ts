import { readFile } from 'node:fs/promises'
import { parseContract } from '../recording/format.js'
import { TOKEN_VARIABLES } from '../context.js'
import { replay } from './index.js'
import type { Report } from '../types.js'

/** What `verify --replay` reads of the command line. */
export interface ReplayCommandOptions {
  replay: string
  baseUrl: string
  token?: string
  adminToken?: string
  noPermToken?: string
  teamId?: string
  policyId?: string
  otherPolicyId?: string
  dimensionId?: string
  ref?: string[]
  roleToken?: string[]
  allowWrites: boolean
  timeout: number
}

/** `name=value` pairs of a repeatable option, e.g. `--ref "team 1=<id>"`. @throws Error naming a pair without `=` */
function pairs(option: string, values: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(
    values.map((text) => {
      const at = text.lastIndexOf('=')
      if (at <= 0) throw new Error(`${option} takes name=value pairs: "${text}" has no name`)
      return [text.slice(0, at).trim(), text.slice(at + 1).trim()]
    }),
  )
}

const defined = (entries: Array<[string, string | undefined]>): Record<string, string> =>
  Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''))

/** The contract file's text. @throws Error naming the file as `--replay`'s, and what to give instead */
async function readContractFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new Error(
      `cannot read the contract to replay, --replay ${path}: ${(error as Error).message}. Give a file saved from ` +
        'GET /__mock/contract (or written by a test run).',
    )
  }
}

/**
 * Replays a recorded contract file with the ids and tokens the options give: verify's own options name the
 * fixtures the mock's references stand for (`--team-id` is `team 0`, ...), `--ref` and `--role-token` the rest.
 * @throws ContractFileError for a file that is not a recorded contract
 */
export async function runReplay(options: ReplayCommandOptions): Promise<Report> {
  const contract = parseContract(await readContractFile(options.replay))
  const references = {
    ...defined([
      ['team 0', options.teamId],
      ['policy 0 of team 0', options.policyId],
      ['policy 0 of team 1', options.otherPolicyId],
      ['dimension 0', options.dimensionId],
    ]),
    ...pairs('--ref', options.ref),
  }
  const tokens = {
    ...defined([
      ['team_reader', options.token],
      ['super_admin', options.adminToken],
      ['no_permissions', options.noPermToken],
    ]),
    ...pairs('--role-token', options.roleToken),
  }
  return replay({
    baseUrl: options.baseUrl,
    contract,
    references,
    tokens,
    tokenVariables: {
      team_reader: TOKEN_VARIABLES.token,
      super_admin: TOKEN_VARIABLES.admin,
      no_permissions: TOKEN_VARIABLES.noPermission,
    },
    allowWrites: options.allowWrites,
    timeoutMs: options.timeout,
  })
}
