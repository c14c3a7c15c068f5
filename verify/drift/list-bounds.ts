import { randomUUID } from 'node:crypto'
import { listPersonas, listRules } from '../client/api.js'
import type { ApiAnswer } from '../client/http.js'
import type { VerifyContext } from '../context.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { declaredBounds } from './declared.js'
import { serverOpenApi } from './openapi-source.js'
import { combine, MOCK_BOUNDS, probeEdge, type Asked, type EdgeProbes, type LearnedBound } from './edge-probes.js'

/**
 * The largest `limit` each list takes. A server may keep a lower maximum than the description's (a
 * `le=50`): that is one finding, for the check that holds the server to the range; every other check
 * pages with what the server takes, so that it judges paging, filters and schemas rather than the bound.
 */
export type ListName = 'personas' | 'rules'

const BOUND = { personas: 'personasLimitMax', rules: 'rulesLimitMax' } as const

/** Far past the end of any list: each probe gets an empty page, cheap whatever the set. */
const FAR = 1_000_000_000

/** The probes at the mock's maximum and one more, and below a refused maximum the server's own; once per run. */
export function limitProbes(ctx: VerifyContext, list: ListName): Promise<EdgeProbes | undefined> {
  return ctx.memo(`limit-probes-${list}`, async () => {
    // Under names the server does not declare, the rules limit is ignored: no bound would be seen.
    if (list === 'rules' && !(await rulesPaging(ctx)).namesFound) return undefined
    return probeEdge(await asker(ctx, list), MOCK_BOUNDS[BOUND[list]], await declaredMaximum(ctx, list))
  })
}

/** The list's bound, enforced or declared (`null`: none), or undefined when neither shows one. */
export async function listBound(ctx: VerifyContext, list: ListName): Promise<LearnedBound | undefined> {
  const edge = MOCK_BOUNDS[BOUND[list]]
  return combine(edge, await declaredMaximum(ctx, list), await limitProbes(ctx, list))
}

/**
 * The page size to read a list with: `wanted`, or the server's maximum when that is lower. A server more
 * lenient than the mock still gets `wanted`: the mock's bound is what a frontend sends.
 */
export async function pageLimit(ctx: VerifyContext, list: ListName, wanted: number): Promise<number> {
  const bound = (await listBound(ctx, list))?.value
  return typeof bound === 'number' && bound >= 1 ? Math.min(wanted, bound) : wanted
}

async function declaredMaximum(ctx: VerifyContext, list: ListName): Promise<number | null | undefined> {
  const { document } = await serverOpenApi(ctx)
  return document ? declaredBounds(document, (await rulesPaging(ctx)).limit)[BOUND[list]] : undefined
}

/** A request for an empty page with `limit`: taken (a page, or 404 for an unknown policy), or refused at the limit. */
async function asker(ctx: VerifyContext, list: ListName): Promise<(limit: number) => Promise<Asked>> {
  const paging = await rulesPaging(ctx)
  const name = list === 'personas' ? 'limit' : paging.limit
  const offsetName = list === 'personas' ? 'offset' : paging.offset
  const send = (limit: number, offset: number) =>
    ctx.send(
      list === 'personas'
        ? listPersonas(ctx, { limit, offset })
        : listRules(ctx, paging, { limit, offset }, { policyId: ctx.ids.policyId ?? randomUUID() }),
    )
  // A server may bound the offset too (an `le=10000`): far past the end is then refused for the offset, which hides
  // the limit's bound. Its probes start at the first record instead, a page of at most `limit`.
  let offset = FAR
  return async (limit) => {
    let answer = await send(limit, offset)
    if (offset === FAR && answer.status === 422 && !names(answer, name) && names(answer, offsetName)) {
      offset = 0
      answer = await send(limit, offset)
    }
    const refused = answer.status === 422 && names(answer, name)
    return { taken: answer.status < 400 || (list === 'rules' && answer.status === 404), refused, answer }
  }
}

/** Whether a 422's body names `parameter` (its `loc`). */
const names = (answer: ApiAnswer, parameter: string) => JSON.stringify(answer.json).includes(`"${parameter}"`)
