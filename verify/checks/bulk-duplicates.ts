import { isRecord, type Json } from '../client/crawl.js'
import { describeAnswer, requestLine, type ApiAnswer } from '../client/http.js'
import { HTTP_ERROR_BODY } from '../schema/responses.js'
import { validateShape } from '../schema/validation.js'
import { add, addedRecords } from './bulk-writes.js'
import type { CheckScope } from './check.js'
import { BULK_ADD_STATUSES } from '../../model/profile.js'
import { BULK_ADDED, expectBulkAdded, expectStatus, mismatch } from './expectations.js'

/**
 * What a bulk add does with duplicates: the description leaves it open, so each of the three
 * answers a server may give is a profile choice (`bulkDuplicates`), and only an answer that is
 * none of them fails. Sent: a value already in the dimension, then a new value twice.
 */
export interface DuplicatesProbe {
  existing: string
  fresh: string
}

/** The request the probe sends: the existing value, then the new one twice. */
export const duplicatesSent = ({ existing, fresh }: DuplicatesProbe) => [existing, fresh, fresh]

/** Judges the answer to {@link duplicatesSent}, and records the choice it shows. */
export async function expectDuplicatesChoice(
  scope: CheckScope,
  answer: ApiAnswer,
  probe: DuplicatesProbe,
): Promise<void> {
  if (isRefusal(answer)) return expectRejected(scope, answer, probe.fresh)
  const expected = `${BULK_ADDED} with only ${probe.fresh} (duplicates skipped), or every value sent, each a record of its own (stored again), or a refusal (4xx) that adds nothing (rejected)`
  if (!expectStatus(scope, answer, BULK_ADD_STATUSES, expected)) return
  const records = Array.isArray(answer.json) ? answer.json.filter(isRecord) : []
  const choice = choiceShown(records, probe)
  const values = JSON.stringify(records.map((record) => record['value']))
  if (!scope.expect(choice !== undefined, mismatch(answer, expected, `values ${values}`))) return
  const shown = choice === 'skip' ? 'only the new value, once' : 'every value sent, each with its own id'
  scope.ctx.facts.bulkDuplicates = {
    value: choice,
    source: `${requestLine(answer.request)} answered ${answer.status} with ${shown}`,
  }
}

/** `skip`: only the new value, once; `store`: every value sent, each a record of its own; else none of the choices. */
function choiceShown(records: readonly Json[], probe: DuplicatesProbe): 'skip' | 'store' | undefined {
  const values = records.map((record) => record['value'])
  if (sameList(values, [probe.fresh])) return 'skip'
  const distinctIds = new Set(records.map((record) => record['id'])).size === records.length
  return sameList(values, duplicatesSent(probe)) && distinctIds ? 'store' : undefined
}

/** The same values, in any order: the description gives the answer no order ("one per value added"). */
const sameList = (a: readonly unknown[], b: readonly unknown[]) => {
  const sorted = (list: readonly unknown[]) => JSON.stringify(list.map(String).sort())
  return a.length === b.length && sorted(a) === sorted(b)
}

/** How the mock refuses a request with a duplicate under `bulkDuplicates: 'reject'`. */
const MOCK_REJECTION = '409 with {"detail": "..."}'

/**
 * A 4xx: the server refused the request. The description leaves the behaviour for duplicates open, and with it the
 * status and body of a refusal: 409, 400 (`HTTPException(400, "Value already exists")`) and a 422 validation body
 * at the duplicate item are all the profile's `reject`.
 */
const isRefusal = (answer: ApiAnswer) => answer.status >= 400 && answer.status < 500

/**
 * A refusal, and the rejected request added nothing: its new value can be added afterwards. It is added twice in
 * one request, to tell a server that also refuses a repeat within one request (the profile's `reject`) from one
 * that refuses only a value already stored: `bulkDuplicates` has no value for the latter. A server that stored the
 * new value despite its refusal refuses it again as a duplicate, and fails.
 */
async function expectRejected(scope: CheckScope, answer: ApiAnswer, fresh: string): Promise<void> {
  if (!expectRefusalWithoutRecords(scope, answer)) return
  const repeated = await add(scope, [{ value: fresh }, { value: fresh }])
  if (isRefusal(repeated)) {
    const again = await add(scope, [{ value: fresh }])
    const nothingAdded = `with ${fresh} once: the refused ${requestLine(answer.request)} added nothing`
    if (!expectBulkAdded(scope, again, nothingAdded) || !addedRecords(scope, again, 1)) return
  } else {
    const records = expectStatus(scope, repeated, BULK_ADD_STATUSES, `a refusal, or ${BULK_ADDED} with ${fresh}`)
      ? (repeated.json as Json[])
      : undefined
    const values = Array.isArray(records) ? records.filter(isRecord).map((record) => record['value']) : []
    // Nothing of the refused request was added: its new value is added now, once or twice.
    if (!scope.expect(values.length > 0 && values.every((value) => value === fresh), mismatch(repeated, `${fresh}`)))
      return
    scope.warn(
      `${requestLine(answer.request)} answered ${answer.status} for a value already stored, but ${requestLine(repeated.request)} with one new value twice answered ${repeated.status} with it ${values.length === 1 ? 'once (a repeat within one request skipped)' : `${values.length} times (stored again)`}: bulkDuplicates: 'reject' is written, under which the mock refuses a repeat within one request too (no setting splits the two)`,
    )
  }
  scope.ctx.facts.bulkDuplicates = {
    value: 'reject',
    source: `${requestLine(answer.request)} answered ${answer.status}`,
  }
  scope.ctx.recordErrorText('duplicateValues', answer, { values: sentValues(answer) })
}

/**
 * A refusal that carries no records; another status or body than the mock's is a warning, since under `reject` the
 * mock answers 409 whatever the server does, and no profile setting changes that status (the detail text is
 * learned as `errorTexts.duplicateValues` where the server sends one).
 */
function expectRefusalWithoutRecords(scope: CheckScope, answer: ApiAnswer): boolean {
  const body = answer.json as { results?: unknown } | undefined
  const records = Array.isArray(body) || body?.results !== undefined
  if (!scope.expect(!records, mismatch(answer, `a refusal (the mock: ${MOCK_REJECTION}) and no records`))) return false
  const asMock = answer.status === 409 && validateShape(HTTP_ERROR_BODY, answer.json).failures.length === 0
  if (!asMock)
    scope.warn(
      `${requestLine(answer.request)}: the duplicates refused with ${describeAnswer(answer)}; under bulkDuplicates: 'reject' the mock answers ${MOCK_REJECTION} (a choice: the description leaves the behaviour for duplicate values open; no profile setting changes the status)`,
    )
  return true
}

/** The values a request sent (to find them in a refusal's detail). */
function sentValues(answer: ApiAnswer): string[] {
  const values = (answer.request.json as { values?: Array<{ value?: unknown }> } | undefined)?.values ?? []
  return values.map((item) => item.value).filter((value): value is string => typeof value === 'string')
}
