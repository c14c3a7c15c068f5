import { listPersonas } from '../client/api.js'
import type { Check, CheckScope } from './check.js'
import { expectConcatenation } from './concatenation.js'
import { crawl, type Crawl } from '../client/crawl.js'
import { expectPage, mismatch } from './expectations.js'
import { personaReference } from './reference-sets.js'
import { pageLimit } from '../drift/list-bounds.js'

/** A small page size, so that a set of a few dozen records spans many pages. */
const SMALL_PAGE = 7
const SMALL_PAGES = 20

/** The team's unfiltered personas, or nothing (evidence recorded, or skipped when the team is empty). */
export async function personaBaseline(scope: CheckScope): Promise<{ reference: Crawl; total: number } | undefined> {
  const reference = await personaReference(scope.ctx)
  if (reference.problem) return void scope.fail(reference.problem)
  const total = reference.pages[0]?.page.total ?? 0
  if (total === 0) scope.skip('the team has no personas: nothing to page through')
  return { reference, total }
}

/** The same set read 7 at a time, once per run. */
function smallPages(scope: CheckScope): Promise<Crawl> {
  const { ctx } = scope
  return ctx.memo('personas-small-pages', async () =>
    crawl(ctx, (offset, limit) => listPersonas(ctx, { limit, offset }), {
      pageSize: await pageLimit(ctx, 'personas', SMALL_PAGE),
      maxPages: SMALL_PAGES,
    }),
  )
}

/** The team's personas read whole and {@link SMALL_PAGE} at a time, or nothing (evidence recorded, or skipped). */
async function baselineAndSmallPages(
  scope: CheckScope,
): Promise<{ baseline: { reference: Crawl; total: number }; pages: Crawl } | undefined> {
  const baseline = await personaBaseline(scope)
  if (!baseline) return undefined
  const pages = await smallPages(scope)
  if (pages.problem) return void scope.fail(pages.problem)
  return { baseline, pages }
}

/** Each page holds exactly min(limit, total - offset) records. */
async function expectPageSize(scope: CheckScope, total: number, query: { limit?: number; offset?: number }) {
  const answer = await scope.ctx.send(listPersonas(scope.ctx, query))
  const page = expectPage(scope, answer)
  const expected = Math.max(0, Math.min(query.limit ?? 10, total - (query.offset ?? 0)))
  if (page)
    scope.expect(
      page.results.length === expected,
      mismatch(
        answer,
        `${expected} records (limit ${query.limit ?? 'default 10'}, ${total} in all)`,
        `${page.results.length} records`,
      ),
    )
}

/** Paging of the personas: limits, default, totals, concatenation, past the end. */
export const pagingChecks: Check[] = [
  {
    id: 'paging.limit-respected',
    kind: 'contract',
    description: 'a page holds exactly min(limit, total - offset) personas',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      // The largest page the server takes: a maximum below the description's 100 is validation.limit-range's finding.
      const largest = await pageLimit(scope.ctx, 'personas', 100)
      const small = Math.min(5, largest)
      for (const limit of new Set([1, small, largest])) await expectPageSize(scope, baseline.total, { limit })
      await expectPageSize(scope, baseline.total, { limit: small, offset: Math.max(0, baseline.total - 2) })
    },
  },
  {
    id: 'paging.default-limit',
    kind: 'contract',
    description: 'without a limit, a page holds min(10, total) personas',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (baseline) await expectPageSize(scope, baseline.total, {})
    },
  },
  {
    id: 'paging.total-stable',
    kind: 'contract',
    description: 'total is the same on every page and for every page size',
    needs: ['team'],
    async run(scope) {
      const read = await baselineAndSmallPages(scope)
      if (!read) return
      const { baseline, pages } = read
      for (const { answer, page } of [...baseline.reference.pages, ...pages.pages]) {
        scope.expect(
          page.total === baseline.total,
          mismatch(answer, `total ${baseline.total}, as on the first page of the whole set`, `total ${page.total}`),
        )
      }
    },
  },
  {
    id: 'paging.concatenation',
    kind: 'contract',
    description: `pages of ${SMALL_PAGE} concatenate to the whole set, in order, with no duplicate and no gap`,
    needs: ['team'],
    async run(scope) {
      const read = await baselineAndSmallPages(scope)
      if (read) expectConcatenation(scope, read.baseline.reference, read.pages, `pages of ${SMALL_PAGE}`)
    },
  },
  {
    id: 'paging.past-end',
    kind: 'contract',
    description: 'an offset at or past the end gives results [] with the true total',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const offset of [baseline.total, baseline.total + 25]) {
        const limit = await pageLimit(scope.ctx, 'personas', 10)
        const answer = await scope.ctx.send(listPersonas(scope.ctx, { limit, offset }))
        const page = expectPage(scope, answer)
        const got = page ? `${page.results.length} records, total ${page.total}` : ''
        if (page)
          scope.expect(
            page.results.length === 0 && page.total === baseline.total,
            mismatch(answer, `results [] and total ${baseline.total}`, got),
          )
      }
    },
  },
]
