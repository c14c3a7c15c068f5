import { rulesPath } from '../client/api.js'
import { bearer, ContractClient, type ApiRequest } from '../client/http.js'
import { unverifiedClaims } from '../preconditions.js'
import type { Profile } from '../../model/profile.js'
import { Anonymiser } from './anonymise.js'
import { ImportError, readList, type Budget, type ListRead } from './crawl.js'
import type { Progress } from './progress.js'
import { buildState } from './state.js'
import { writeFileAtomically } from '../atomic-write.js'
import { IMPORT_TOKEN_VARIABLE } from './options.js'

export interface ImportOptions {
  from: string
  token: string
  teamIds: string[]
  policyIds: string[]
  dimensionIds: string[]
  out: string
  /** The seed of the fakes; undefined: the records are kept as they are. */
  anonymise?: string
  maxRecords: number
  pageSize: number
  /** The server's profile: the rules' paging parameter names, the bounds, the timestamp unit. */
  profile: Profile
  timeoutMs: number
}

/** What was imported: counts per kind, and the lists that were cut or changed under the crawl. */
export interface ImportSummary {
  teams: number
  policies: number
  dimensions: number
  personas: number
  rules: number
  cut: string[]
  changed: string[]
}

/**
 * Reads the personas of each team and the rules of each policy, with GET requests only, and writes them as a state
 * file the mock loads (`--state-file`, `PUT /__mock/state`).
 * @throws ImportError for an answer that is not a page or records the mock cannot hold; ServerUnreachableError,
 * RequestTimeoutError from the client. Nothing is written then.
 */
export async function runImport(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  const client = new ContractClient(options.from, options.timeoutMs)
  const auth = bearer('token', options.token, IMPORT_TOKEN_VARIABLE)
  const budget: Budget = { left: options.maxRecords }
  const { bounds, rulesPaging, timestampUnit } = options.profile
  const anonymiser = options.anonymise === undefined ? undefined : new Anonymiser(options.anonymise)
  const lists: Array<[string, ListRead]> = []
  const read = async (label: string, pageSize: number, page: (offset: number, limit: number) => ApiRequest) => {
    const list = await readList(client, { label, pageSize, page }, budget, progress, options.token)
    lists.push([label, list])
    return list.records
  }

  const teams = []
  for (const id of options.teamIds) {
    const pageSize = Math.min(options.pageSize, bounds.personasLimitMax ?? options.pageSize)
    const personas = await read(`personas of team ${id}`, pageSize, (offset, limit) => ({
      method: 'GET',
      path: '/v1/personas/',
      query: { team_id: id, limit, offset },
      auth,
    }))
    teams.push({ id, personas: anonymiser ? personas.map((p) => anonymiser.persona(p)) : personas })
  }
  const teamId = policyTeam(options)
  const policies = []
  for (const id of options.policyIds) {
    const pageSize = Math.min(options.pageSize, bounds.rulesLimitMax ?? options.pageSize)
    const rules = await read(`rules of policy ${id}`, pageSize, (offset, limit) => ({
      method: 'GET',
      path: rulesPath(id),
      query: { [rulesPaging.limit]: limit, [rulesPaging.offset]: offset },
      auth,
    }))
    policies.push({ id, teamId, rules: anonymiser ? rules.map((r) => anonymiser.rule(r)) : rules })
  }

  const text = buildState({ teams, policies, dimensionIds: options.dimensionIds, timestampUnit })
  await writeFileAtomically(options.out, text).catch((error: Error) => {
    throw new ImportError(`Cannot write ${options.out}: ${error.message.replace(/, open .*$/, '')}.`)
  })
  return {
    teams: teams.length,
    policies: policies.length,
    dimensions: options.dimensionIds.length,
    personas: teams.reduce((sum, team) => sum + team.personas.length, 0),
    rules: policies.reduce((sum, policy) => sum + policy.rules.length, 0),
    cut: lists.filter(([, list]) => list.cut).map(([label]) => label),
    changed: lists.filter(([, list]) => list.totalBefore !== undefined).map(([label]) => label),
  }
}

/**
 * The team the policies are filed under. The API does not say which team owns a policy; a team-scoped token reads
 * only its own team's, so that team when it is one of `--team-id`, else the first `--team-id`.
 */
function policyTeam(options: ImportOptions): string {
  const scoped = unverifiedClaims(options.token)?.team_id
  return typeof scoped === 'string' && options.teamIds.includes(scoped) ? scoped : options.teamIds[0]!
}
