import { readPage, type Json } from '../client/crawl.js'
import { requestLine, type ApiAnswer, type ApiRequest, type ContractClient } from '../client/http.js'
import { unverifiedClaims } from '../preconditions.js'
import type { Progress } from './progress.js'

/** Why an import could not happen (the command exits 2 and writes nothing). */
export class ImportError extends Error {
  override readonly name = 'ImportError'
}

/** One list to read whole: its name in progress lines, and the request of a page. */
export interface ListSource {
  label: string
  pageSize: number
  page(offset: number, limit: number): ApiRequest
}

/** What was read of one list. */
export interface ListRead {
  records: Json[]
  /** The total the last page gave (undefined when no page was read: the bound was reached before). */
  total: number | undefined
  /** The bound stopped the crawl before the total was reached. */
  cut: boolean
  /** The total of the first page, when a later page gave another one (records added or deleted meanwhile). */
  totalBefore?: number
}

/** How many records the import may still take (`--max-records`), shared by every list. */
export interface Budget {
  left: number
}

/**
 * Reads a list page by page until its total is reached. Records are kept once by id: a record added during the
 * crawl shifts the later ones by one, and the page after shows one again. A short page (a server that caps the
 * limit lower) moves on by what it held. Stops when the budget is spent, and says so (`cut`).
 * @throws ImportError when an answer is not a page, when a page adds no record (a server that ignores `offset`),
 * when the pages end before the total; ServerUnreachableError or RequestTimeoutError from the client.
 */
export async function readList(
  client: ContractClient,
  source: ListSource,
  budget: Budget,
  progress: Progress,
  token: string,
): Promise<ListRead> {
  const records: Json[] = []
  const seen = new Set<string>()
  let offset = 0
  let total: number | undefined
  let first: number | undefined
  for (;;) {
    if (budget.left <= 0) return finish({ records, total, cut: true })
    const answer = await client.send(source.page(offset, Math.min(source.pageSize, budget.left)))
    const read = readPage(answer)
    if ('problem' in read) throw refusal(answer, token)
    total = read.page.total
    first ??= total
    const before = records.length
    for (const record of read.page.results) {
      const id = typeof record['id'] === 'string' ? record['id'] : undefined
      if (id === undefined || seen.has(id) || budget.left <= 0) continue
      seen.add(id)
      records.push(record)
      budget.left -= 1
    }
    progress.update(source.label, records.length, total)
    const empty = read.page.results.length === 0
    if (!empty && records.length === before && budget.left > 0) throw repeating(answer, source, records.length)
    offset += read.page.results.length
    if (empty && records.length < total) throw shortOfTotal(answer, source, records.length, total)
    if (empty || offset >= total) return finish({ records, total, cut: false })
  }

  function finish(result: ListRead): ListRead {
    if (first !== undefined && first !== result.total) result.totalBefore = first
    const notes = [
      ...(result.cut ? [' (cut: --max-records reached)'] : []),
      ...(result.totalBefore === undefined
        ? []
        : [` (the total changed from ${result.totalBefore} during the crawl: records added or deleted meanwhile)`]),
    ]
    progress.finish(source.label, result.records.length, result.total, notes.join(''))
    return result
  }
}

/**
 * A page that added no record: every one read already, or without an `id`. A server that ignores `offset` (or
 * sends the same page whatever it is asked) would be crawled for ever, its total never reached.
 */
function repeating(answer: ApiAnswer, source: ListSource, read: number): ImportError {
  return new ImportError(
    `The server answered ${requestLine(answer.request)} with no ${source.label} not read already (or none with an ` +
      `"id"), after ${read}: it does not page by offset, so the list cannot be read whole; nothing was written.`,
  )
}

/** The pages ended before the total: what was read is not the list, and a file of it would be taken for one. */
function shortOfTotal(answer: ApiAnswer, source: ListSource, read: number, total: number): ImportError {
  return new ImportError(
    `The server answered ${requestLine(answer.request)} with an empty page after ${read} ${source.label}, ` +
      `though its total is ${total}: the list cannot be read whole; nothing was written.`,
  )
}

/** One sentence for an answer that is not a page: the request (never the token), the status, its detail, a hint. */
export function refusal(answer: ApiAnswer, token: string): ImportError {
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail
  const said = typeof detail === 'string' ? ` ${JSON.stringify(detail)}` : ''
  return new ImportError(
    `The server answered ${requestLine(answer.request)} with ${answer.status}${said}${hint(answer.status, token)}; ` +
      'nothing was written.',
  )
}

function hint(status: number, token: string): string {
  if (status === 401) {
    const exp = unverifiedClaims(token)?.exp
    const expired = typeof exp === 'number' && exp * 1000 < Date.now()
    return expired
      ? `: --token expired on ${new Date(exp * 1000).toISOString()}`
      : ': the server rejects --token (signed with another secret, or not a JWT)'
  }
  if (status === 403) return ': --token lacks persona:read or policy:read, or is scoped to another team'
  if (status === 404) return ': no such policy for this token (check --policy-id)'
  if (status === 422) return ': check the ids (UUIDs) and --page-size against the server (see --profile)'
  return status === 200 ? ': not a page {"results": [...], "total": <integer>}' : ''
}
