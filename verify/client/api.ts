import type { VerifyContext } from '../context.js'
import type { ApiRequest, Credential, QueryValue } from './http.js'

/** The three operations the contract covers, as requests. */

const PERSONAS_PATH = '/v1/personas/'
/** The rules path of a policy (ids are URL-encoded: a malformed one is sent as given). */
export const rulesPath = (policyId: string) => `/v1/policies/${encodeURIComponent(policyId)}/rules`
/** The bulk add path of a dimension. */
const bulkPath = (dimensionId: string) => `/v1/demographics/${encodeURIComponent(dimensionId)}/values/bulk`

type Query = Record<string, QueryValue | undefined>

/** `GET /v1/personas/` for the run's team (`team_id` is "described as required"); `team_id: undefined` leaves it out. */
export function listPersonas(
  ctx: VerifyContext,
  query: Query = {},
  auth: Credential = ctx.credentials.token,
): ApiRequest {
  return { method: 'GET', path: PERSONAS_PATH, query: { team_id: ctx.ids.teamId, ...query }, auth }
}

/** The names and default of the rules paging parameters (a profile setting). */
export interface RulesPaging {
  limit: string
  offset: string
  /**
   * The second parameter counts pages, not records (offset = page × limit): the description says only "the other
   * is an integer with minimum 0". Checks still ask by offset; a multiple of the limit is sent as its page.
   */
  pageIndex?: boolean
}

/** `GET /v1/policies/{policy_id}/rules`, with the paging parameters under the server's names. */
export function listRules(
  ctx: VerifyContext,
  paging: RulesPaging,
  page: { limit?: QueryValue; offset?: QueryValue } = {},
  options: { policyId?: string; auth?: Credential } = {},
): ApiRequest {
  const policyId = options.policyId ?? ctx.ids.policyId ?? ''
  return {
    method: 'GET',
    path: rulesPath(policyId),
    query: { [paging.limit]: page.limit, [paging.offset]: paging.pageIndex ? asPage(page) : page.offset },
    auth: options.auth ?? ctx.credentials.token,
  }
}

/** The page an offset lies on, for a server paging by page index (a negative offset is sent as it is). */
function asPage({ limit, offset }: { limit?: QueryValue; offset?: QueryValue }): QueryValue | undefined {
  if (typeof offset !== 'number' || typeof limit !== 'number' || offset < 0 || limit < 1) return offset
  return Math.floor(offset / limit)
}

/** `POST /v1/demographics/{dimension_id}/values/bulk` with a JSON body (or raw text when it is a string). */
export function bulkAdd(dimensionId: string, body: unknown, auth: Credential): ApiRequest {
  const request: ApiRequest = { method: 'POST', path: bulkPath(dimensionId), auth }
  return typeof body === 'string' ? { ...request, rawJson: body } : { ...request, json: body }
}
