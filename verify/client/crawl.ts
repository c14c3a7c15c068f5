import type { VerifyContext } from '../context.js'
import { describeAnswer, describeRequest, type ApiAnswer, type ApiRequest } from './http.js'
import type { Finding } from '../checks/check.js'

/** A record as JSON: checks read fields defensively, since the server may send anything. */
export type Json = Record<string, unknown>

/** A list page: `results` and `total`, as both list envelopes have them. */
export interface Page {
  results: Json[]
  total: number
}

/** Every page of one query, read in order. */
export interface Crawl {
  records: Json[]
  pages: Array<{ answer: ApiAnswer; page: Page }>
  /** True when the server had nothing more to give (the total reached, or an empty page): not cut short by the page budget. */
  complete: boolean
  /** What came instead of a page, when one did not. */
  problem?: Finding
}

/** Reads an answer as a list page, or says what came instead. */
export function readPage(answer: ApiAnswer): { page: Page } | { problem: Finding } {
  const body = answer.json as { results?: unknown; total?: unknown } | undefined
  if (answer.status === 200 && Array.isArray(body?.results) && Number.isInteger(body?.total)) {
    return { page: { results: body.results.filter(isRecord), total: body.total as number } }
  }
  const expected = '200 with a page {"results": [...], "total": <integer>}'
  return {
    problem: { request: describeRequest(answer.request), expected, got: describeAnswer(answer), sent: answer.request },
  }
}

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Reads a query page by page until the total is reached, a page is empty, or `maxPages` were
 * read: the run stays bounded however large the set is. A short page before the end (a server
 * that caps the limit lower than asked) moves on by what it held, so the set is still read whole
 * and only the check on limits reports the cap.
 * @example await crawl(ctx, (offset, limit) => listPersonas(ctx, { offset, limit }), { pageSize: 100, maxPages: 10 })
 */
export async function crawl(
  ctx: VerifyContext,
  pageRequest: (offset: number, limit: number) => ApiRequest,
  bounds: { pageSize: number; maxPages: number },
): Promise<Crawl> {
  const result: Crawl = { records: [], pages: [], complete: false }
  let offset = 0
  while (result.pages.length < bounds.maxPages) {
    const answer = await ctx.send(pageRequest(offset, bounds.pageSize))
    const read = readPage(answer)
    if ('problem' in read) return { ...result, problem: read.problem }
    result.pages.push({ answer, page: read.page })
    result.records.push(...read.page.results)
    const total = result.pages[0]!.page.total
    const held = read.page.results.length
    if (held === 0) return { ...result, complete: true }
    offset += Math.min(held, bounds.pageSize)
    if (offset >= total) return { ...result, complete: true }
  }
  return result
}

/** The ids of records, in order (a record without a string id counts as `(no id)`). */
export const idsOf = (records: readonly Json[]): string[] =>
  records.map((record) => (typeof record['id'] === 'string' ? record['id'] : '(no id)'))

/** A hyphenated UUID, its hex digits in either case (RFC 4122 reads both). */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)

/** Whether a record's id field names `id`: an upper-case UUID is the same one (its spelling is schema.*'s warning). */
export const sameId = (value: unknown, id: unknown): boolean =>
  typeof value === 'string' && typeof id === 'string' && value.toLowerCase() === id.toLowerCase()
