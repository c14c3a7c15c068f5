import { requestLine, type ApiAnswer } from '../client/http.js'
import type { Bounds } from '../profile/settings.js'
import { DEFAULT_BOUNDS } from '../../model/profile.js'

/**
 * What probes at one of the mock's bounds saw, and the bound a server keeps made of it and of what
 * /openapi.json declares. Shared by the list limits (list-bounds.ts) and the bulk add's bounds (bounds.ts).
 */
export type BoundName = keyof Bounds

/** The mock's bounds: its profile's defaults. */
export const MOCK_BOUNDS: Readonly<Record<BoundName, number>> = DEFAULT_BOUNDS

/** What the probes at one bound saw: the edge and one more, `taken` or not. */
export interface EdgeProbes {
  edge: { taken: boolean; answer: ApiAnswer }
  beyond: { taken: boolean; answer: ApiAnswer }
  /** Below a refused edge, the largest value the server took, and the answer to one more. */
  enforced?: { value: number; taken: ApiAnswer; refused: ApiAnswer }
}

/** One probe at a value of a bound: taken, refused by validation (a 422), or neither (unclear). */
export interface Asked {
  taken: boolean
  refused: boolean
  answer: ApiAnswer
}

export interface LearnedBound {
  value: number | null
  source: string
}

/** An enforced bound wins; else the declared bound; a bound neither declared nor enforced is `null`. */
export function combine(
  edge: number,
  declared: number | null | undefined,
  probes: EdgeProbes | undefined,
): LearnedBound | undefined {
  const said = declared === undefined ? undefined : `GET /openapi.json declares ${declared ?? 'none'}`
  if (!probes) return said === undefined ? undefined : { value: declared!, source: said }
  const seen = `${requestLine(probes.beyond.answer.request)} answered ${probes.beyond.answer.status}`
  const sources = (more: string) => [said, more].filter(Boolean).join('; ')
  if (!probes.edge.taken) {
    const { enforced } = probes
    if (enforced)
      return {
        value: enforced.value,
        source: sources(
          `${requestLine(enforced.taken.request)} answered ${enforced.taken.status}, ${requestLine(enforced.refused.request)} ${enforced.refused.status}`,
        ),
      }
    return declared === undefined ? undefined : { value: declared, source: sources(`the edge ${edge} is refused`) }
  }
  if (!probes.beyond.taken) return { value: edge, source: sources(seen) }
  return { value: typeof declared === 'number' && declared > edge ? declared : null, source: sources(seen) }
}

/**
 * Probes a bound at the mock's `edge` and one more; when the edge is refused, finds the largest value the
 * server takes, so that a tighter bound is learned, and written into the profile, whether declared or not.
 * Undefined when an answer at the edge or one more is unclear.
 */
export async function probeEdge(
  ask: (value: number) => Promise<Asked>,
  edge: number,
  declared: number | null | undefined,
): Promise<EdgeProbes | undefined> {
  const [atEdge, beyond] = [await ask(edge), await ask(edge + 1)]
  if (!atEdge.taken && !atEdge.refused) return undefined
  if (!beyond.taken && !beyond.refused) return undefined
  const enforced = atEdge.refused ? await largestTaken(ask, { value: edge, ...atEdge }, declared) : undefined
  return { edge: atEdge, beyond, ...(enforced ? { enforced } : {}) }
}

/**
 * The largest value below the refused `edge` the server takes: its declared bound when the server keeps it
 * (two probes), else by bisection (about ten). Undefined when even 1 is refused or an answer is unclear.
 */
async function largestTaken(
  ask: (value: number) => Promise<Asked>,
  edge: Asked & { value: number },
  declared: number | null | undefined,
): Promise<EdgeProbes['enforced']> {
  if (typeof declared === 'number' && declared >= 1 && declared < edge.value) {
    const [at, above] = [await ask(declared), await ask(declared + 1)]
    if (at.taken && above.refused) return { value: declared, taken: at.answer, refused: above.answer }
  }
  let low = await ask(1)
  if (!low.taken) return undefined
  let [lowValue, highValue, high] = [1, edge.value, edge as Asked]
  while (highValue - lowValue > 1) {
    const middle = Math.floor((lowValue + highValue) / 2)
    const asked = await ask(middle)
    if (asked.taken) [low, lowValue] = [asked, middle]
    else if (asked.refused) [high, highValue] = [asked, middle]
    else return undefined
  }
  return { value: lowValue, taken: low.answer, refused: high.answer }
}
