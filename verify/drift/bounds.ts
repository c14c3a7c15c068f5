import { completeItem, probeBody, probesBarred, requiredItemFields, type Probe } from '../checks/bulk-probes.js'
import type { VerifyContext } from '../context.js'
import { serverOpenApi } from './openapi-source.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { declaredBounds } from './declared.js'
import {
  type Asked,
  type BoundName,
  combine,
  type EdgeProbes,
  type LearnedBound,
  MOCK_BOUNDS,
  probeEdge,
} from './edge-probes.js'
import { limitProbes, listBound } from './list-bounds.js'

/**
 * The bounds a server keeps where the mock has one: declared in /openapi.json, and enforced, as
 * probes show at the mock's edge (the edge itself taken, one more refused). A server that refuses
 * the edge keeps a tighter bound, which probes below the edge find (edge-probes.ts); one that takes
 * one more is more lenient (reported, and written into the profile as `null` or its own declared
 * bound). The list limits' probes live in list-bounds.ts, since every list read pages by them.
 */
export { MOCK_BOUNDS }

export interface LearnedBounds {
  learned: Partial<Record<BoundName, LearnedBound>>
  probes: Partial<Record<BoundName, EdgeProbes>>
  /** What /openapi.json declares (`null`: no bound), when it has the schema. */
  declared: Partial<Record<BoundName, number | null | undefined>>
}

/** Every bound the run could learn, once per run. */
export function learnBounds(ctx: VerifyContext): Promise<LearnedBounds> {
  return ctx.memo('bounds', async () => {
    const { document } = await serverOpenApi(ctx)
    const declared = document ? declaredBounds(document, (await rulesPaging(ctx)).limit) : {}
    const probes: Partial<Record<BoundName, EdgeProbes>> = {
      personasLimitMax: await limitProbes(ctx, 'personas'),
      rulesLimitMax: await limitProbes(ctx, 'rules'),
      // The bulk add's probes send bodies a server could write: never in a read-only run.
      ...(probesBarred(ctx)
        ? {}
        : {
            bulkMaxItems: await itemsEdge(ctx, declared.bulkMaxItems),
            valueMaxLength: await lengthEdge(ctx, declared.valueMaxLength),
          }),
    }
    const learned: Partial<Record<BoundName, LearnedBound>> = {
      personasLimitMax: await listBound(ctx, 'personas'),
      rulesLimitMax: await listBound(ctx, 'rules'),
      bulkMaxItems: combine(MOCK_BOUNDS.bulkMaxItems, declared.bulkMaxItems, probes.bulkMaxItems),
      valueMaxLength: combine(MOCK_BOUNDS.valueMaxLength, declared.valueMaxLength, probes.valueMaxLength),
    }
    for (const name of Object.keys(MOCK_BOUNDS) as BoundName[]) {
      if (!probes[name]) delete probes[name]
      if (!learned[name]) delete learned[name]
    }
    return { learned, probes, declared }
  })
}

/** A bulk add probe as a bound's probe: accepted (404 from the unknown dimension, or 2xx) or refused (422). */
const asked = (probe: Probe): Asked => ({
  taken: probe.verdict === 'accepted',
  refused: probe.verdict === 'refused',
  answer: probe.answer,
})

async function itemsEdge(ctx: VerifyContext, declared: number | null | undefined): Promise<EdgeProbes | undefined> {
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
  const ask = async (count: number) => asked(await probeBody(ctx, body(count), shell(count)))
  return probeEdge(ask, MOCK_BOUNDS.bulkMaxItems, declared)
}

async function lengthEdge(ctx: VerifyContext, declared: number | null | undefined): Promise<EdgeProbes | undefined> {
  const { fields } = await requiredItemFields(ctx)
  const body = (length: number) => ({ values: [completeItem({ value: 'v'.repeat(length) }, fields)] })
  const ask = async (length: number) => asked(await probeBody(ctx, body(length)))
  return probeEdge(ask, MOCK_BOUNDS.valueMaxLength, declared)
}
