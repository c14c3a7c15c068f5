import { listPersonas, listRules } from '../client/api.js'
import type { VerifyContext } from '../context.js'
import { crawl, type Crawl } from '../client/crawl.js'
import { rulesPaging } from '../profile/rules-paging.js'

/**
 * The unfiltered sets the checks compare with, each read once per run and bounded: up to
 * 1000 personas (10 pages of the largest limit) and 3000 rules. Larger sets are checked on
 * what was read, and the checks say so.
 */
export const PERSONA_PAGE = 100
export const PERSONA_PAGES = 10
const RULE_PAGE = 1000
const RULE_PAGES = 3

/** The team's personas, unfiltered, in the server's order. */
export function personaReference(ctx: VerifyContext): Promise<Crawl> {
  return ctx.memo('personas', () =>
    crawl(ctx, (offset, limit) => listPersonas(ctx, { limit, offset }), {
      pageSize: PERSONA_PAGE,
      maxPages: PERSONA_PAGES,
    }),
  )
}

/** The policy's rules, in the server's order. */
export function rulesReference(ctx: VerifyContext): Promise<Crawl> {
  return ctx.memo('rules', async () => {
    const paging = await rulesPaging(ctx)
    return crawl(ctx, (offset, limit) => listRules(ctx, paging, { limit, offset }), {
      pageSize: RULE_PAGE,
      maxPages: RULE_PAGES,
    })
  })
}

/** A note for checks that could only read part of a large set. */
export function partialNote(what: string, crawl: Crawl): string {
  return `${what}: read the first ${crawl.records.length} of ${crawl.pages[0]?.page.total ?? '?'} records; the rest was not cross-checked`
}
