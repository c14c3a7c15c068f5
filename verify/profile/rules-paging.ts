import { randomUUID } from 'node:crypto'
import { listRules, rulesPath, type RulesPaging } from '../client/api.js'
import type { VerifyContext } from '../context.js'
import { describeRequest, type ApiAnswer } from '../client/http.js'
import { serverOpenApi, type OpenApiDocument } from '../drift/openapi-source.js'

/**
 * The rules paging parameters are the one thing of the description with no names ("one is an
 * integer with range 1 to 1000, the other one with minimum 0"). The verifier reads them from the
 * server's /openapi.json, or finds them by probing: FastAPI validates every declared query
 * parameter, so a request that sets many candidate names to an invalid value gets a 422 naming
 * exactly the declared ones.
 */
export interface DetectedRulesPaging extends RulesPaging {
  /** False when neither the document nor the probes named them: the contract's `limit`/`offset` are assumed. */
  namesFound: boolean
  namesSource: string
  defaultLimit?: number
  defaultSource?: string
  /** How the second parameter was read to be a page index, when it was. */
  pageIndexSource?: string
}

const LIMIT_CANDIDATES = [
  'limit',
  'page_size',
  'pageSize',
  'per_page',
  'perPage',
  'size',
  'take',
  'max_results',
  'top',
  'count',
  'first',
]
const OFFSET_CANDIDATES = ['offset', 'skip', 'start', 'from', 'page_offset', 'startIndex', 'start_index']
const ASSUMED: DetectedRulesPaging = {
  limit: 'limit',
  offset: 'offset',
  namesFound: false,
  namesSource: 'assumed: neither /openapi.json nor probing named them',
}

/** The server's rules paging names and default, found once per run. */
export function rulesPaging(ctx: VerifyContext): Promise<DetectedRulesPaging> {
  return ctx.memo('rules-paging', async () => {
    const found = (await fromDocument(ctx)) ?? (await byProbing(ctx)) ?? ASSUMED
    const names = found.namesFound && ctx.ids.policyId ? { ...found, ...(await probePageIndex(ctx, found)) } : found
    if (names.defaultLimit !== undefined || !ctx.ids.policyId) return names
    return { ...names, ...(await probeDefault(ctx, names)) }
  })
}

type Parameter = { name?: unknown; in?: unknown; schema?: { maximum?: unknown; minimum?: unknown; default?: unknown } }

async function fromDocument(ctx: VerifyContext): Promise<DetectedRulesPaging | undefined> {
  const { document } = await serverOpenApi(ctx)
  const query = rulesParameters(document).filter((parameter) => parameter.in === 'query')
  const limit = query.find((parameter) => typeof parameter.schema?.maximum === 'number')
  const offset = query.find((parameter) => parameter !== limit && parameter.schema?.minimum === 0)
  if (typeof limit?.name !== 'string' || typeof offset?.name !== 'string') return undefined
  const defaultLimit = Number.isInteger(limit.schema?.default) ? (limit.schema?.default as number) : undefined
  const source = 'GET /openapi.json'
  return {
    limit: limit.name,
    offset: offset.name,
    namesFound: true,
    namesSource: source,
    ...(defaultLimit === undefined ? {} : { defaultLimit, defaultSource: source }),
  }
}

function rulesParameters(document: OpenApiDocument | undefined): Parameter[] {
  const item = document?.paths?.['/v1/policies/{policy_id}/rules'] as { get?: { parameters?: unknown } } | undefined
  return Array.isArray(item?.get?.parameters) ? (item.get.parameters as Parameter[]) : []
}

async function byProbing(ctx: VerifyContext): Promise<DetectedRulesPaging | undefined> {
  const limit = await probeName(ctx, LIMIT_CANDIDATES, '0')
  const offset = await probeName(ctx, OFFSET_CANDIDATES, '-1')
  if (!limit || !offset) return undefined
  return {
    limit: limit.name,
    offset: offset.name,
    namesFound: true,
    namesSource: `422 locs of ${limit.source} and ${offset.source}`,
  }
}

/** Sets every candidate to an invalid value; the 422 names the one the server declares. */
async function probeName(ctx: VerifyContext, candidates: readonly string[], invalid: string) {
  const request = {
    method: 'GET' as const,
    path: rulesPath(ctx.ids.policyId ?? randomUUID()),
    query: Object.fromEntries(candidates.map((name) => [name, invalid])),
    auth: ctx.credentials.token,
  }
  const names = queryLocs(await ctx.send(request)).filter((name) => candidates.includes(name))
  return names.length === 1 ? { name: names[0] as string, source: describeRequest(request) } : undefined
}

function queryLocs(answer: ApiAnswer): string[] {
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail
  if (answer.status !== 422 || !Array.isArray(detail)) return []
  return detail.flatMap((entry: { loc?: unknown }) =>
    Array.isArray(entry.loc) && entry.loc[0] === 'query' && typeof entry.loc[1] === 'string' ? [entry.loc[1]] : [],
  )
}

/** The default is the length of a page asked without a limit, when that page is not the whole policy. */
async function probeDefault(ctx: VerifyContext, paging: RulesPaging): Promise<Partial<DetectedRulesPaging>> {
  const answer = await ctx.send(listRules(ctx, paging))
  const body = answer.json as { results?: unknown; total?: unknown } | undefined
  if (answer.status !== 200 || !Array.isArray(body?.results) || typeof body.total !== 'number') return {}
  if (body.results.length >= body.total) return {}
  return {
    defaultLimit: body.results.length,
    defaultSource: `${describeRequest(answer.request)} answered ${body.results.length} of ${body.total} rules`,
  }
}

/**
 * "The other is an integer with minimum 0": an offset (records skipped) or a page index. A page of 2 at 1 holds
 * the rule a page of 1 at 1 opens with when it is an offset; when it is a page index it holds records 2 and 3,
 * among them the one a page of 1 at 2 opens with, and not the former. Pages are compared as sets: their order
 * is paging.rules-concatenation's business. Undecided (fewer than 3 rules, other answers): an offset.
 */
async function probePageIndex(ctx: VerifyContext, paging: RulesPaging): Promise<Partial<DetectedRulesPaging>> {
  const ids = async (limit: number, offset: number) => {
    const answer = await ctx.send(listRules(ctx, paging, { limit, offset }))
    const results = (answer.json as { results?: unknown } | undefined)?.results
    const records = answer.status === 200 && Array.isArray(results) ? (results as Array<{ id?: unknown }>) : []
    return { ids: records.map((record) => record?.id), request: describeRequest(answer.request) }
  }
  const [one, two, third] = [await ids(1, 1), await ids(2, 1), await ids(1, 2)]
  const [atOne, atTwo] = [one.ids[0], third.ids[0]]
  if (typeof atOne !== 'string' || typeof atTwo !== 'string' || atOne === atTwo) return {}
  if (two.ids.includes(atOne) || !two.ids.includes(atTwo)) return {}
  return {
    pageIndex: true,
    pageIndexSource: `${two.request} held the rule of ${third.request}, not that of ${one.request}`,
  }
}
