import { randomUUID } from 'node:crypto'
import { listPersonas, listRules } from '../client/api.js'
import { completeItem, probeBody, probesBarred, requiredItemFields, type Probe } from '../checks/bulk-probes.js'
import type { VerifyContext } from '../context.js'
import { requestLine, type ApiAnswer } from '../client/http.js'
import { serverOpenApi } from './openapi-source.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { declaredBounds } from './declared.js'
import type { Bounds } from '../profile/settings.js'
import { DEFAULT_BOUNDS } from '../../model/profile.js'

/**
 * The bounds a server keeps where the mock has one: declared in /openapi.json, and enforced, as
 * probes show at the mock's edge (the edge itself taken, one more refused). A server that
 * refuses the edge is stricter than the mock (a contract failure, for the checks that send it); one
 * that takes one more is more lenient (reported, and written into the profile as `null` or its own
 * declared bound).
 */
export type BoundName = keyof Bounds

/** The mock's bounds: its profile's defaults. */
export const MOCK_BOUNDS: Readonly<Record<BoundName, number>> = DEFAULT_BOUNDS

/** What the probes at one bound saw: the edge and one more, `taken` or not. */
interface EdgeProbes {
  edge: { taken: boolean; answer: ApiAnswer }
  beyond: { taken: boolean; answer: ApiAnswer }
}

interface LearnedBound {
  value: number | null
  source: string
}

export interface LearnedBounds {
  learned: Partial<Record<BoundName, LearnedBound>>
  probes: Partial<Record<BoundName, EdgeProbes>>
}

/** Every bound the run could learn, once per run. */
export function learnBounds(ctx: VerifyContext): Promise<LearnedBounds> {
  return ctx.memo('bounds', async () => {
    const { document } = await serverOpenApi(ctx)
    const declared = document ? declaredBounds(document, (await rulesPaging(ctx)).limit) : {}
    const probes: Partial<Record<BoundName, EdgeProbes>> = {
      personasLimitMax: await queryEdge(ctx, 'personas'),
      // Under names the server does not declare, the limit is ignored: no bound would be seen.
      ...((await rulesPaging(ctx)).namesFound ? { rulesLimitMax: await queryEdge(ctx, 'rules') } : {}),
      // The bulk add's probes send bodies a server could write: never in a read-only run.
      ...(probesBarred(ctx) ? {} : { bulkMaxItems: await itemsEdge(ctx), valueMaxLength: await lengthEdge(ctx) }),
    }
    const learned: Partial<Record<BoundName, LearnedBound>> = {}
    for (const name of Object.keys(MOCK_BOUNDS) as BoundName[]) {
      const bound = combine(MOCK_BOUNDS[name], declared[name], probes[name])
      if (bound) learned[name] = bound
    }
    return { learned, probes }
  })
}

/** An enforced edge wins; else the declared bound; a bound neither declared nor enforced is `null`. */
function combine(
  edge: number,
  declared: number | null | undefined,
  probes: EdgeProbes | undefined,
): LearnedBound | undefined {
  const said = declared === undefined ? undefined : `GET /openapi.json declares ${declared ?? 'none'}`
  if (!probes) return said === undefined ? undefined : { value: declared!, source: said }
  const seen = `${requestLine(probes.beyond.answer.request)} answered ${probes.beyond.answer.status}`
  const sources = (more: string) => [said, more].filter(Boolean).join('; ')
  if (!probes.edge.taken)
    return declared === undefined ? undefined : { value: declared, source: sources(`the edge ${edge} is refused`) }
  if (!probes.beyond.taken) return { value: edge, source: sources(seen) }
  return { value: typeof declared === 'number' && declared > edge ? declared : null, source: sources(seen) }
}

const FAR = 1_000_000_000

/** limit at the edge and one more, far past the end (an empty page: cheap whatever the set). */
async function queryEdge(ctx: VerifyContext, list: 'personas' | 'rules'): Promise<EdgeProbes | undefined> {
  const edge = MOCK_BOUNDS[list === 'personas' ? 'personasLimitMax' : 'rulesLimitMax']
  const paging = await rulesPaging(ctx)
  const ask = async (limit: number) => {
    const request =
      list === 'personas'
        ? listPersonas(ctx, { limit, offset: FAR })
        : listRules(ctx, paging, { limit, offset: FAR }, { policyId: ctx.ids.policyId ?? randomUUID() })
    const answer = await ctx.send(request)
    const refused =
      answer.status === 422 && JSON.stringify(answer.json).includes(`"${list === 'personas' ? 'limit' : paging.limit}"`)
    return { taken: answer.status < 400 || (list === 'rules' && answer.status === 404), refused, answer }
  }
  const [atEdge, beyond] = [await ask(edge), await ask(edge + 1)]
  if (!atEdge.taken && !atEdge.refused) return undefined
  if (!beyond.taken && !beyond.refused) return undefined
  return { edge: atEdge, beyond }
}

async function itemsEdge(ctx: VerifyContext): Promise<EdgeProbes | undefined> {
  const { fields } = await requiredItemFields(ctx)
  const body = (count: number) => ({
    values: Array.from({ length: count }, (_, index) => completeItem({ value: `v${index}` }, fields)),
  })
  // The same body, written by a shell command: a curl line with 1000 items would not be readable.
  const filled: Record<string, string> = {
    display_name: ',display_name:"v"+i',
    metadata: ',metadata:{}',
    sort_order: ',sort_order:0',
  }
  const item = `{value:"v"+i${fields.map((field) => filled[field] ?? '').join('')}}`
  const shell = (count: number) =>
    `$(node -e 'console.log(JSON.stringify({values:Array.from({length:${count}},(_,i)=>(${item}))}))')`
  const [edge, beyond] = [MOCK_BOUNDS.bulkMaxItems, MOCK_BOUNDS.bulkMaxItems + 1]
  return edges(await probeBody(ctx, body(edge), shell(edge)), await probeBody(ctx, body(beyond), shell(beyond)))
}

async function lengthEdge(ctx: VerifyContext): Promise<EdgeProbes | undefined> {
  const { fields } = await requiredItemFields(ctx)
  const body = (length: number) => ({ values: [completeItem({ value: 'v'.repeat(length) }, fields)] })
  return edges(
    await probeBody(ctx, body(MOCK_BOUNDS.valueMaxLength)),
    await probeBody(ctx, body(MOCK_BOUNDS.valueMaxLength + 1)),
  )
}

function edges(edge: Probe, beyond: Probe): EdgeProbes | undefined {
  if (edge.verdict === 'unclear' || beyond.verdict === 'unclear') return undefined
  return {
    edge: { taken: edge.verdict === 'accepted', answer: edge.answer },
    beyond: { taken: beyond.verdict === 'accepted', answer: beyond.answer },
  }
}
