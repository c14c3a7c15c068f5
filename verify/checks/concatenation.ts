import type { CheckScope } from './check.js'
import { idsOf, type Crawl } from '../client/crawl.js'
import { describeIdDifference } from './expectations.js'
import { describeRequest } from '../client/http.js'
import { partialNote } from './reference-sets.js'

/**
 * The small pages, concatenated, are the reference set in the reference order: no record twice
 * (an ignored offset repeats the first page), none missing (a total that lies leaves a gap).
 */
export function expectConcatenation(scope: CheckScope, reference: Crawl, pages: Crawl, what: string): void {
  const got = idsOf(pages.records)
  const expected = idsOf(reference.records).slice(0, pages.complete ? undefined : got.length)
  const sent = pages.pages[0]!.answer.request
  const request = `${describeRequest(sent)} and the next ${pages.pages.length - 1} pages`
  const duplicates = got.filter((id, index) => got.indexOf(id) !== index)
  const repeated = [...new Set(duplicates)].slice(0, 3).join(', ')
  scope.expect(duplicates.length === 0, {
    request,
    expected: 'no record on two pages',
    got: `${duplicates.length} repeated (${repeated})`,
    sent,
  })
  const total = reference.pages[0]?.page.total ?? 0
  if (pages.complete)
    scope.expect(got.length === total, {
      request,
      expected: `${total} records, as total says`,
      got: `${what} held ${got.length}`,
      sent,
    })
  scope.expect(sameSet(got, expected), {
    request,
    expected: 'the records of one large page',
    got: describeIdDifference(expected, got),
    sent,
  })
  if (sameSet(got, expected) && duplicates.length === 0) {
    const inOrder = got.every((id, index) => id === expected[index])
    scope.expect(inOrder, {
      request,
      expected: 'the order of one large page',
      got: 'the same records in another order',
      sent,
    })
  }
  if (!pages.complete || !reference.complete) scope.note(partialNote(what, pages))
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === new Set(a).size
