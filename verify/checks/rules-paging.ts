import { listRules } from '../client/api.js'
import type { Check, CheckScope } from './check.js'
import { crawl, type Crawl } from '../client/crawl.js'
import { expectPage, expectValidationError, mismatch } from './expectations.js'
import { rulesReference } from './reference-sets.js'
import { rulesPaging, type DetectedRulesPaging } from '../profile/rules-paging.js'
import { expectConcatenation } from './concatenation.js'
import { pageLimit } from '../drift/list-bounds.js'

const SMALL_PAGE = 37
const SMALL_PAGES = 20

/** The policy's rules, or nothing (evidence recorded, or skipped when the policy has none or the paging names are unknown). */
async function rulesBaseline(
  scope: CheckScope,
): Promise<{ reference: Crawl; total: number; paging: DetectedRulesPaging } | undefined> {
  const paging = await rulesPaging(scope.ctx)
  // Under names the server does not declare, a limit or offset is ignored: every verdict would be false.
  if (!paging.namesFound)
    scope.skip(
      `rulesPaging not seen: ${paging.namesSource}; under limit and offset names the server may not take, nothing here could be judged`,
    )
  const reference = await rulesReference(scope.ctx)
  if (reference.problem) return void scope.fail(reference.problem)
  const total = reference.pages[0]?.page.total ?? 0
  if (total === 0) scope.skip('the policy has no rules: nothing to page through')
  return { reference, total, paging }
}

/** Paging of the rules, under the parameter names the server uses. */
export const rulesPagingChecks: Check[] = [
  {
    id: 'paging.rules-concatenation',
    kind: 'contract',
    description: `rules pages of ${SMALL_PAGE} hold min(limit, total - offset) rules, keep the total and concatenate to the whole policy`,
    needs: ['policy'],
    async run(scope) {
      const baseline = await rulesBaseline(scope)
      if (!baseline) return
      const { ctx } = scope
      // A server whose maximum is below 37 (a finding of paging.rules-bounds) is paged by its maximum.
      const pageSize = await pageLimit(ctx, 'rules', SMALL_PAGE)
      const pages = await crawl(ctx, (offset, limit) => listRules(ctx, baseline.paging, { limit, offset }), {
        pageSize,
        maxPages: SMALL_PAGES,
      })
      if (pages.problem) return scope.fail(pages.problem)
      pages.pages.forEach(({ answer, page }, index) => {
        const expected = Math.max(0, Math.min(pageSize, baseline.total - index * pageSize))
        scope.expect(page.total === baseline.total, mismatch(answer, `total ${baseline.total}`, `total ${page.total}`))
        scope.expect(
          page.results.length === expected,
          mismatch(answer, `${expected} rules`, `${page.results.length} rules`),
        )
      })
      expectConcatenation(scope, baseline.reference, pages, `rules pages of ${pageSize}`)
      // A page index sent alone opens that page, by a default size: not an offset to judge.
      if (baseline.paging.pageIndex)
        scope.note(`${baseline.paging.offset} is a page index (profile.rules-paging): pages were asked by page`)
      else if (baseline.reference.complete) await expectOffsetAlone(scope, baseline)
    },
  },
  {
    id: 'paging.rules-past-end',
    kind: 'contract',
    description: 'a rules offset at or past the end gives results [] with the true total',
    needs: ['policy'],
    async run(scope) {
      const baseline = await rulesBaseline(scope)
      if (!baseline) return
      const limit = await pageLimit(scope.ctx, 'rules', 10)
      // A page index is asked by the first page past the end (an offset inside the last page opens that page).
      const past = (offset: number) => (baseline.paging.pageIndex ? Math.ceil(offset / limit) * limit : offset)
      for (const offset of [past(baseline.total), past(baseline.total + 25)]) {
        const answer = await scope.ctx.send(listRules(scope.ctx, baseline.paging, { limit, offset }))
        const page = expectPage(scope, answer)
        if (page)
          scope.expect(
            page.results.length === 0 && page.total === baseline.total,
            mismatch(
              answer,
              `results [] and total ${baseline.total}`,
              `${page.results.length} rules, total ${page.total}`,
            ),
          )
      }
    },
  },
  {
    id: 'paging.rules-bounds',
    kind: 'contract',
    description: 'the rules limit takes 1 to 1000 and the offset 0 or more; values outside give 422 at that parameter',
    needs: ['policy'],
    async run(scope) {
      const baseline = await rulesBaseline(scope)
      if (!baseline) return
      const { ctx } = scope
      const { paging } = baseline
      for (const limit of [1, 1000]) {
        const answer = await ctx.send(listRules(ctx, paging, { limit }))
        const page = expectPage(scope, answer)
        const expected = Math.min(limit, baseline.total)
        if (page)
          scope.expect(
            page.results.length === expected,
            mismatch(answer, `${expected} rules`, `${page.results.length} rules`),
          )
      }
      for (const limit of [0, 1001])
        expectValidationError(scope, await ctx.send(listRules(ctx, paging, { limit })), ['query', paging.limit])
      expectValidationError(scope, await ctx.send(listRules(ctx, paging, { offset: -1 })), ['query', paging.offset])
    },
  },
]

/** An offset sent without a limit starts the page there too (a server may read the offset only beside a limit). */
async function expectOffsetAlone(
  scope: CheckScope,
  { reference, total, paging }: { reference: Crawl; total: number; paging: DetectedRulesPaging },
): Promise<void> {
  if (total < 2) return
  const offset = Math.min(3, total - 1)
  const answer = await scope.ctx.send(listRules(scope.ctx, paging, { offset }))
  const page = expectPage(scope, answer)
  const wanted = reference.records[offset]?.['id']
  if (page)
    scope.expect(
      page.results[0]?.['id'] === wanted,
      mismatch(answer, `the page to start at rule ${offset} (${wanted})`, `first rule ${page.results[0]?.['id']}`),
    )
}
