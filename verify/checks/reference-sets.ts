import { listPersonas, listRules } from '../client/api.js'
import type { VerifyContext } from '../context.js'
import { crawl, type Crawl } from '../client/crawl.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { pageLimit, type ListName } from '../drift/list-bounds.js'

/**
 * The unfiltered sets the checks compare with, each read once per run and bounded: up to
 * 1000 personas (10 pages of the largest limit) and 3000 rules. Larger sets are checked on
 * what was read, and the checks say so.
 */
const PERSONA_RECORDS = 1000
const RULE_RECORDS = 3000
/** A server with a tiny maximum limit would need many pages: past this many, the rest is not read. */
const MOST_PAGES = 50

/**
 * How a whole list is read: pages of the description's maximum limit (100 personas, 1000 rules), or of the
 * server's own maximum when it keeps a lower one (a finding of its own check), never more than 50 pages.
 */
export async function readingPages(
  ctx: VerifyContext,
  list: ListName,
): Promise<{ pageSize: number; maxPages: number }> {
  const [wanted, records] = list === 'personas' ? [100, PERSONA_RECORDS] : [1000, RULE_RECORDS]
  const pageSize = await pageLimit(ctx, list, wanted)
  return { pageSize, maxPages: Math.min(MOST_PAGES, Math.ceil(records / pageSize)) }
}

/** The team's personas, unfiltered, in the server's order. */
export function personaReference(ctx: VerifyContext): Promise<Crawl> {
  return ctx.memo('personas', async () =>
    crawl(ctx, (offset, limit) => listPersonas(ctx, { limit, offset }), await readingPages(ctx, 'personas')),
  )
}

/** The policy's rules, in the server's order. */
export function rulesReference(ctx: VerifyContext): Promise<Crawl> {
  return ctx.memo('rules', async () => {
    const paging = await rulesPaging(ctx)
    return crawl(ctx, (offset, limit) => listRules(ctx, paging, { limit, offset }), await readingPages(ctx, 'rules'))
  })
}

/** A note for checks that could only read part of a large set. */
export function partialNote(what: string, crawl: Crawl): string {
  return `${what}: read the first ${crawl.records.length} of ${crawl.pages[0]?.page.total ?? '?'} records; the rest was not cross-checked`
}
