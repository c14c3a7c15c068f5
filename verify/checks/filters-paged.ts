import { listPersonas } from '../client/api.js'
import { idsOf, readPage, type Json } from '../client/crawl.js'
import type { QueryValue } from '../client/http.js'
import { pageLimit } from '../drift/list-bounds.js'
import type { Check } from './check.js'
import { describeIdDifference, mismatch } from './expectations.js'
import { INTENTS, intentIn, presetIs } from './filter-matching.js'
import { personaBaseline } from './paging.js'

/** Pages of a filtered set read at most: a small page makes many. */
const MOST_PAGES = 20

/** The filters a paged read may take, each with the records it matches. */
const FILTERS: ReadonlyArray<{ query: Record<string, QueryValue>; matches: (record: Json) => boolean }> = [
  { query: { is_preset: false }, matches: presetIs(false) },
  { query: { is_preset: true }, matches: presetIs(true) },
  ...INTENTS.map((intent) => ({
    query: { intents: [intent] },
    matches: intentIn([intent]),
  })),
]

/**
 * "total: integer (count of all items matching the query, before paging)"; "results: ... items of the current page;
 * fewer than the limit on the last page": a filtered set is paged after it is filtered. A server that pages the
 * team and then filters the page keeps a right total and a right whole read (one large page), and only small
 * pages show it: they hold fewer records than the limit before the last, and miss records.
 */
export const filteredPagingCheck: Check = {
  id: 'filters.paged',
  kind: 'contract',
  description:
    'a filtered set read in small pages: each page holds min(limit, total - offset) matching records, and they join into the filtered set',
  needs: ['team'],
  async run(scope) {
    const { ctx } = scope
    const baseline = await personaBaseline(scope)
    if (!baseline) return
    if (!baseline.reference.complete)
      return scope.skip('the team could not be read whole: nothing to compare pages with')
    const records = baseline.reference.records
    // The filter matching the most records while leaving some out: only then can filtering after paging show.
    const chosen = FILTERS.map((filter) => ({ ...filter, expected: records.filter(filter.matches) }))
      .filter(({ expected }) => expected.length >= 3 && expected.length < records.length)
      .sort((a, b) => b.expected.length - a.expected.length)[0]
    if (!chosen) return scope.skip('no filter matches at least 3 personas of the team and leaves some out')
    const count = chosen.expected.length
    const limit = await pageLimit(ctx, 'personas', Math.max(2, Math.floor(count / 3)))
    const got: Json[] = []
    for (let offset = 0, index = 0; offset < count && index < MOST_PAGES; offset += limit, index += 1) {
      const answer = await ctx.send(listPersonas(ctx, { ...chosen.query, limit, offset }))
      const read = readPage(answer)
      if ('problem' in read) return scope.fail(read.problem)
      const wanted = Math.min(limit, count - offset)
      scope.expect(
        read.page.results.length === wanted && read.page.total === count,
        mismatch(
          answer,
          `${wanted} records and total ${count} (the team's matching records, paged after filtering)`,
          `${read.page.results.length} records, total ${read.page.total}`,
        ),
      )
      got.push(...read.page.results)
    }
    if (count > limit * MOST_PAGES) return scope.note(`read the first ${MOST_PAGES} pages of ${limit} only`)
    const [expected, ids] = [idsOf(chosen.expected), idsOf(got)]
    const first = listPersonas(ctx, { ...chosen.query, limit, offset: 0 })
    scope.expect(ids.length === expected.length && expected.every((id) => ids.includes(id)), {
      request: `GET /v1/personas/ with ${JSON.stringify(chosen.query)}, ${limit} a page`,
      expected: `the ${count} matching records of the unfiltered set`,
      got: describeIdDifference(expected, ids),
      sent: first,
    })
  },
}
