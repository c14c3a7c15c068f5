import { randomUUID } from 'node:crypto'
import { bulkAdd } from '../client/api.js'
import type { VerifyContext } from '../context.js'
import { requestLine, type ApiAnswer, type ApiRequest } from '../client/http.js'
import { isBulkAdded } from './expectations.js'

/**
 * Probes of the bulk add's validation: bodies sent with the admin token to a dimension that does
 * not exist. FastAPI validates the body before the endpoint looks the dimension up, so a 422 means
 * the body was refused, and a 404 that it passed validation (and nothing was added). A body that
 * passes could still be written by a server that creates a dimension on its first bulk add (the
 * description leaves an unknown dimension open): only a run with --allow-writes probes.
 */
type Verdict = 'refused' | 'accepted' | 'unclear'

/** Not a string in any pydantic generation (pydantic 1 takes a number for a string: 5 would be added as "5"). */
export const NOT_A_STRING = { not: 'a string' }

export interface Probe {
  verdict: Verdict
  answer: ApiAnswer
  /** The 422's locs, as JSON texts. */
  locs: string[]
}

/**
 * Whether the server reads a bulk add's body before it looks the dimension up, as FastAPI does when the endpoint
 * looks it up: a body that is no list, sent to a dimension that does not exist, gets a 422 at the body. A server
 * that looks the dimension up first (a dependency, `Depends(get_dimension_or_404)`) answers it 404, 403, or 422 at
 * the path, and answers every body so at an unknown dimension: its probes show nothing. Asked once per run.
 */
export function bodyReadFirst(ctx: VerifyContext): Promise<{ first: boolean; answer: ApiAnswer }> {
  return ctx.memo('body-read-first', async () => {
    const answer = await ctx.send(bulkAdd(randomUUID(), { values: 'not a list' }, ctx.credentials.admin!))
    return { first: atBody(answer), answer }
  })
}

/** A 422 pointing at the body (not at the path's dimension). */
export const atBody = (answer: ApiAnswer): boolean => answer.status === 422 && locsOf(answer).some(isBodyLoc)

const isBodyLoc = (loc: string) => loc.startsWith('["body"')

function locsOf(answer: ApiAnswer): string[] {
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail
  return Array.isArray(detail) ? detail.map((entry: { loc?: unknown }) => JSON.stringify(entry?.loc)) : []
}

/** Why probing the body shows nothing on this server (it looks the dimension up first), or undefined. */
export async function dimensionLookedUpFirst(ctx: VerifyContext): Promise<string | undefined> {
  const { first, answer } = await bodyReadFirst(ctx)
  return first
    ? undefined
    : `the server looks the dimension up before it reads the body (${requestLine(answer.request)} with {"values": "not a list"} answered ${answer.status}, not a 422 at the body): a dimension that does not exist answers every body alike`
}

/** Why a probe got no clear answer, for a note. */
export async function unclearWhy(ctx: VerifyContext, probe: Probe): Promise<string> {
  return (
    (await dimensionLookedUpFirst(ctx)) ??
    `${requestLine(probe.answer.request)} answered ${probe.answer.status} (neither 404, 2xx nor a 422 at the body)`
  )
}

/**
 * Sends a body to a dimension that does not exist (or to `dimensionId`, which a run with writes allowed may write
 * to); `shellBody` stands for a large body in curl commands. To an unknown dimension of a server that looks the
 * dimension up first, nothing is sent and the verdict is unclear.
 */
export async function probeBody(
  ctx: VerifyContext,
  body: unknown,
  shellBody?: string,
  dimensionId?: string,
): Promise<Probe> {
  const looked = await bodyReadFirst(ctx)
  if (!looked.first && !dimensionId) return { verdict: 'unclear', answer: looked.answer, locs: [] }
  const request: ApiRequest = {
    ...bulkAdd(dimensionId ?? randomUUID(), body, ctx.credentials.admin!),
    ...(shellBody ? { shellBody } : {}),
  }
  const answer = await ctx.send(request)
  const locs = answer.status === 422 ? locsOf(answer) : []
  if (answer.status === 422) ctx.recordValidationError(answer)
  const accepted = (answer.status === 404 && !dimensionId) || isBulkAdded(answer)
  // A 422 at the path only is about the dimension, not the body.
  const verdict = atBody(answer) ? 'refused' : accepted ? 'accepted' : 'unclear'
  return { verdict, answer, locs }
}

const ITEM_FIELDS = ['display_name', 'metadata', 'sort_order'] as const

/** Why the bulk add's probes cannot run, or undefined when they can. */
export function probesBarred(ctx: VerifyContext): string | undefined {
  if (!ctx.credentials.admin) return 'not probed: no --admin-token'
  return ctx.options.allowWrites
    ? undefined
    : 'not probed: read-only run (the probe sends a body a server could write; pass --allow-writes to run it)'
}

/**
 * Which item fields besides `value` the server requires (the description leaves it open), once per
 * run; `probed` false when the run could not ask.
 */
export function requiredItemFields(ctx: VerifyContext): Promise<{ fields: string[]; source: string; probed: boolean }> {
  return ctx.memo('required-item-fields', async () => {
    const barred = probesBarred(ctx)
    if (barred) return { fields: [], source: barred, probed: false }
    const body = { values: [{ value: ctx.uniqueValue('fields') }] }
    // Where an unknown dimension shows nothing, the run's own dimension is asked: taken, it adds one value of the
    // run's own naming, as the bulk checks do.
    const own = (await bodyReadFirst(ctx)).first ? undefined : ctx.ids.dimensionId
    const probe = await probeBody(ctx, body, undefined, own)
    if (probe.verdict === 'unclear')
      return { fields: [], source: `not probed: ${await unclearWhy(ctx, probe)}`, probed: false }
    const fields = ITEM_FIELDS.filter((field) => probe.locs.includes(JSON.stringify(['body', 'values', 0, field])))
    return {
      fields,
      source: `${requestLine(probe.answer.request)} with {"values": [{"value": …}]} answered ${probe.answer.status}`,
      probed: true,
    }
  })
}

/** An item as this server takes it: `value` alone, or with every field it requires filled in. */
export function completeItem(item: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  const filled: Record<string, unknown> = { display_name: item['value'], metadata: {}, sort_order: 0 }
  return {
    ...item,
    ...Object.fromEntries(required.filter((field) => !(field in item)).map((field) => [field, filled[field]])),
  }
}

/** `{"value": 5}` for a string: refused by pydantic 2 and strict fields, taken as "5" by pydantic 1. */
export function numbersAsStrings(ctx: VerifyContext): Promise<{ coerced: boolean; source: string } | undefined> {
  return ctx.memo('numbers-as-strings', async () => {
    if (probesBarred(ctx)) return undefined
    const probe = await probeBody(ctx, { values: [completeItem({ value: 5 }, (await requiredItemFields(ctx)).fields)] })
    if (probe.verdict === 'unclear') return undefined
    return {
      coerced: probe.verdict === 'accepted',
      source: `${requestLine(probe.answer.request)} with {"value": 5} answered ${probe.answer.status}`,
    }
  })
}
