import { randomUUID } from 'node:crypto'
import { bulkAdd } from '../client/api.js'
import type { VerifyContext } from '../context.js'
import { requestLine, type ApiAnswer, type ApiRequest } from '../client/http.js'

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

/** Sends a body to a dimension that does not exist; `shellBody` stands for a large body in curl commands. */
export async function probeBody(ctx: VerifyContext, body: unknown, shellBody?: string): Promise<Probe> {
  const request: ApiRequest = {
    ...bulkAdd(randomUUID(), body, ctx.credentials.admin!),
    ...(shellBody ? { shellBody } : {}),
  }
  const answer = await ctx.send(request)
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail
  const locs =
    answer.status === 422 && Array.isArray(detail)
      ? detail.map((entry: { loc?: unknown }) => JSON.stringify(entry.loc))
      : []
  if (answer.status === 422) ctx.recordValidationError(answer)
  const accepted = answer.status === 404 || answer.status === 200 || answer.status === 201
  const verdict = answer.status === 422 ? 'refused' : accepted ? 'accepted' : 'unclear'
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
    const probe = await probeBody(ctx, { values: [{ value: ctx.uniqueValue('fields') }] })
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
