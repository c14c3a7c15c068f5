import { BULK_ADD_STATUSES } from '../../model/profile.js'
import type { CheckScope, Finding } from './check.js'
import { readPage, type Page } from '../client/crawl.js'
import { describeAnswer, describeRequest, type ApiAnswer, type ApiRequest } from '../client/http.js'
import { validateShape } from '../schema/validation.js'
import { integersWrittenAsFloats } from '../schema/integers.js'
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

/** The statuses a bulk add may answer its records with, as evidence names them: "201, 200, 202, 203 or 207". */
export const BULK_ADDED = `${BULK_ADD_STATUSES.slice(0, -1).join(', ')} or ${BULK_ADD_STATUSES.at(-1)}`

/** Whether a bulk add succeeded with its records: which of {@link BULK_ADD_STATUSES} is the server's choice. */
export const isBulkAdded = (answer: ApiAnswer): boolean =>
  (BULK_ADD_STATUSES as readonly number[]).includes(answer.status)

/** A bulk add's success ("<statuses> <what>"), or the evidence of what came instead. */
export const expectBulkAdded = (scope: CheckScope, answer: ApiAnswer, what: string): boolean =>
  expectStatus(scope, answer, BULK_ADD_STATUSES, `${BULK_ADDED} ${what}`)

/** A body that validates against a schema pair: failures are evidence, the rest warnings. */
export function expectShape(scope: CheckScope, answer: ApiAnswer, pair: SchemaPair): boolean {
  const { warnings, ...shape } = validateShape(pair, answer.json)
  const failures = [...shape.failures, ...integersWrittenAsFloats(answer.text, pair.contract)]
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

/**
 * A refusal, judged by the rule that only what could break a frontend fails: a 2xx (or any answer that
 * is not a 4xx: a redirect, a crash) where a refusal is due, or records in the refusal. The description
 * leaves the refusal statuses and bodies open ("not shown"), so another 4xx, or another body than
 * `{"detail": "..."}`, is a choice: a warning saying what the mock answers. True only for a refusal as
 * the mock gives it (one of `statuses` with a `{"detail": "..."}` body), whose text the profile can learn.
 */
export function expectRefused(scope: CheckScope, answer: ApiAnswer, statuses: readonly number[]): boolean {
  const mock = `${statuses.join(' or ')} with {"detail": "..."}`
  const refused = answer.status >= 400 && answer.status < 500
  if (!scope.expect(refused, mismatch(answer, `a refusal (4xx; the mock: ${mock}) with no records`))) return false
  const body = answer.json as { results?: unknown } | undefined
  if (!scope.expect(!Array.isArray(body) && body?.results === undefined, mismatch(answer, `${mock} and no records`)))
    return false
  const asMock = statuses.includes(answer.status) && validateShape(HTTP_ERROR_BODY, answer.json).failures.length === 0
  // The mock's statuses that a profile setting changes (401 or 403) are all in `statuses` already:
  // what is left over, another status or body, no setting aligns.
  if (!asMock)
    scope.warn(
      `${describeRequest(answer.request)}: refused with ${describeAnswer(answer)}; the mock answers ${mock} (a choice: the description leaves refusal statuses and bodies open; no profile setting changes it)`,
    )
  return asMock
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
