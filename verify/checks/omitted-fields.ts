import type { Crawl } from '../client/crawl.js'
import type { CheckScope } from './check.js'
import { mismatch } from './expectations.js'

/**
 * Fails the optional fields a server leaves out of some records while it writes `null` for others. A field marked
 * "Required: no" may be missing from an answer: FastAPI's `response_model_exclude_none=True` drops every `None`
 * (a warning, from the exact schema). But such a server drops every `None`: one that writes `null` elsewhere writes
 * every field of its response model, so a field it leaves out is missing from the model (a forgotten field).
 */
export function expectNoForgottenFields(scope: CheckScope, crawl: Crawl, optional: readonly string[]): void {
  const written = new Set<string>()
  const missing = new Map<string, number>()
  for (const record of crawl.records)
    for (const field of optional) {
      if (!(field in record)) missing.set(field, (missing.get(field) ?? 0) + 1)
      else if (record[field] === null) written.add(field)
    }
  const first = crawl.pages[0]?.answer
  if (!first || written.size === 0) return
  const nulls = [...written].join(', ')
  for (const [field, count] of missing)
    scope.fail(
      mismatch(
        first,
        `results[].${field} in every record: the server writes null for ${nulls}, so it does not leave out None ` +
          '(response_model_exclude_none), and writes every field of its response model',
        `results[].${field} missing in ${count} of ${crawl.records.length} records`,
      ),
    )
}
