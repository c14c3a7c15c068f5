import type { CheckScope, Finding } from './check.js'
import { readPage, type Page } from '../client/crawl.js'
import { describeAnswer, describeRequest, type ApiAnswer, type ApiRequest } from '../client/http.js'
import { validateShape } from '../schema/validation.js'
import { HTTP_ERROR_BODY, validationErrorBody, type SchemaPair } from '../schema/responses.js'

/** The expectations many checks share, each recording evidence in the scope when it does not hold. */

/** Evidence for an answer that is not what was expected. */
export function mismatch(answer: ApiAnswer, expected: string, got = describeAnswer(answer)): Finding {
  return sentEvidence(answer.request, expected, got)
}

/** Evidence about a request (its curl command follows from it). */
export function sentEvidence(
  request: ApiRequest,
  expected: string,
  got: string,
  described = describeRequest(request),
): Finding {
  return { request: described, expected, got, sent: request }
}

/** One of `statuses`, or the evidence of what came instead. */
export function expectStatus(
  scope: CheckScope,
  answer: ApiAnswer,
  statuses: readonly number[],
  expected: string,
): boolean {
  return scope.expect(statuses.includes(answer.status), mismatch(answer, expected))
}

/** A body that validates against a schema pair: failures are evidence, the rest warnings. */
export function expectShape(scope: CheckScope, answer: ApiAnswer, pair: SchemaPair): boolean {
  const { failures, warnings } = validateShape(pair, answer.json)
  for (const warning of warnings) scope.warn(`${pair.name}: ${warning}`)
  return scope.expect(
    failures.length === 0,
    mismatch(answer, `a ${pair.name} as the contract describes it`, failures.join('; ')),
  )
}

/** Where a 422 entry points: `["query", "limit"]`, `["body", "values", 0, "value"]`. */
export type Loc = ReadonlyArray<string | number>

/**
 * A 422 whose `detail` is a list of `{loc, msg, type}` and names the offending input: one entry's
 * `loc` is `loc` (FastAPI may report other problems of the same request next to it).
 */
export function expectValidationError(scope: CheckScope, answer: ApiAnswer, loc: Loc): boolean {
  const wanted = `422 with a detail entry at loc ${JSON.stringify(loc)}`
  if (!scope.expect(answer.status === 422, mismatch(answer, wanted))) return false
  scope.ctx.recordValidationError(answer)
  if (!expectShape(scope, answer, validationErrorBody(answer.json))) return false
  const detail = (answer.json as { detail: Array<{ loc: unknown }> }).detail
  const locs = detail.map((entry) => JSON.stringify(entry.loc))
  return scope.expect(
    locs.includes(JSON.stringify(loc)),
    mismatch(answer, wanted, `locs ${locs.join(', ') || '(none)'}`),
  )
}

/** A refusal: one of `statuses`, a `{"detail": "..."}` body, and no records in it. */
export function expectRefused(scope: CheckScope, answer: ApiAnswer, statuses: readonly number[]): boolean {
  const wanted = `${statuses.join(' or ')} with {"detail": "..."} and no records`
  if (!scope.expect(statuses.includes(answer.status), mismatch(answer, wanted))) return false
  const body = answer.json as { results?: unknown } | undefined
  if (!scope.expect(!Array.isArray(body) && body?.results === undefined, mismatch(answer, wanted))) return false
  return expectShape(scope, answer, HTTP_ERROR_BODY)
}

/** Deep equality for JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b)
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

/** Describes a set difference between expected and returned ids, for evidence. */
export function describeIdDifference(expected: readonly string[], got: readonly string[]): string {
  const gotSet = new Set(got)
  const expectedSet = new Set(expected)
  const missing = expected.filter((id) => !gotSet.has(id))
  const extra = got.filter((id) => !expectedSet.has(id))
  const list = (ids: string[]) =>
    ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ')
  const parts = [
    missing.length ? `${missing.length} missing (${list(missing)})` : '',
    extra.length ? `${extra.length} unexpected (${list(extra)})` : '',
  ]
  return parts.filter(Boolean).join('; ') || 'the same records'
}

/** A 200 list page, or undefined with the evidence recorded. */
export function expectPage(scope: CheckScope, answer: ApiAnswer): Page | undefined {
  const read = readPage(answer)
  if ('problem' in read) return void scope.fail(read.problem)
  return read.page
}
