import type { Crawl } from '../client/crawl.js'
import { forgottenFields } from '../schema/forgotten-fields.js'
import type { CheckScope } from './check.js'
import { mismatch } from './expectations.js'

/** Fails the optional fields a server forgot (verify/schema/forgotten-fields.ts) across the pages read. */
export function expectNoForgottenFields(scope: CheckScope, crawl: Crawl, optional: readonly string[]): void {
  const first = crawl.pages[0]?.answer
  if (!first) return
  for (const forgotten of forgottenFields(crawl.records, optional))
    scope.fail(mismatch(first, 'every field of the model in every record, or None left out everywhere', forgotten))
}
