import { isRecord, type Json } from '../client/crawl.js'
import { requestLine, type ApiAnswer } from '../client/http.js'
import { add, addedRecords } from './bulk-writes.js'
import type { CheckScope } from './check.js'
import { expectRefused, expectStatus, mismatch } from './expectations.js'

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
  if (answer.status === 409) return expectRejected(scope, answer, probe.fresh)
  const expected = `200 or 201 with only ${probe.fresh} (duplicates skipped), or every value sent, each a record of its own (stored again)`
  if (!expectStatus(scope, answer, [200, 201], expected)) return
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

/**
 * 409 with a detail, and the rejected request added nothing: its new value can be added afterwards. It is
 * added twice in one request, to tell a server that also refuses a repeat within one request (the profile's
 * `reject`) from one that refuses only a value already stored: `bulkDuplicates` has no value for the latter.
 */
async function expectRejected(scope: CheckScope, answer: ApiAnswer, fresh: string): Promise<void> {
  if (!expectRefused(scope, answer, [409])) return
  const repeated = await add(scope, [{ value: fresh }, { value: fresh }])
  if (repeated.status === 409) {
    const again = await add(scope, [{ value: fresh }])
    if (!addedRecords(scope, again, 1)) return
  } else {
    const records = expectStatus(scope, repeated, [200, 201], `409, or 200 or 201 with ${fresh}`)
      ? (repeated.json as Json[])
      : undefined
    const values = Array.isArray(records) ? records.filter(isRecord).map((record) => record['value']) : []
    // Nothing of the refused request was added: its new value is added now, once or twice.
    if (!scope.expect(values.length > 0 && values.every((value) => value === fresh), mismatch(repeated, `${fresh}`)))
      return
    scope.warn(
      `${requestLine(answer.request)} answered 409 for a value already stored, but ${requestLine(repeated.request)} with one new value twice answered ${repeated.status} with it ${values.length === 1 ? 'once (a repeat within one request skipped)' : `${values.length} times (stored again)`}: bulkDuplicates: 'reject' is written, under which the mock refuses a repeat within one request too (no setting splits the two)`,
    )
  }
  scope.ctx.facts.bulkDuplicates = { value: 'reject', source: `${requestLine(answer.request)} answered 409` }
  scope.ctx.recordErrorText('duplicateValues', answer, { values: sentValues(answer) })
}

/** The values a request sent (to find them in a 409's detail). */
function sentValues(answer: ApiAnswer): string[] {
  const values = (answer.request.json as { values?: Array<{ value?: unknown }> } | undefined)?.values ?? []
  return values.map((item) => item.value).filter((value): value is string => typeof value === 'string')
}
