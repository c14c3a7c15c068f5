import { bulkAdd } from '../client/api.js'
import { completeItem, requiredItemFields } from './bulk-probes.js'
import type { CheckScope } from './check.js'
import { isRecord, type Json, sameId } from '../client/crawl.js'
import { expectBulkAdded, isBulkAdded, mismatch, sameJson } from './expectations.js'
import { requestLine, type ApiAnswer } from '../client/http.js'

/** The bulk checks' writes: values added to the run's dimension, and what the answers are held to. */

/**
 * Adds values to the run's dimension as the admin, each item completed with the fields this
 * server requires (the description leaves that open); notes the success status for the profile.
 */
export async function add(scope: CheckScope, values: Array<Record<string, unknown>>): Promise<ApiAnswer> {
  const { ctx } = scope
  const { fields } = await requiredItemFields(ctx)
  const items = values.map((item) => completeItem(item, fields))
  const answer = await ctx.send(bulkAdd(ctx.ids.dimensionId!, { values: items }, ctx.credentials.admin!))
  if (isBulkAdded(answer) && !ctx.facts.bulkAddStatus) {
    ctx.facts.bulkAddStatus = {
      value: answer.status,
      source: `${requestLine(answer.request)} answered ${answer.status}`,
    }
  }
  return answer
}

/** The records of a successful add, or undefined with the evidence recorded. */
export function addedRecords(scope: CheckScope, answer: ApiAnswer, count: number): Json[] | undefined {
  if (!expectBulkAdded(scope, answer, `with ${count} added value(s)`)) return undefined
  const records = Array.isArray(answer.json) ? answer.json.filter(isRecord) : []
  return scope.expect(records.length === count, mismatch(answer, `an array of ${count} record(s), one per value added`))
    ? records
    : undefined
}

/**
 * The records of an add, put in the order their values were sent. The description says "a JSON array of demographic
 * value records (see Resources), one per value added", and no order: a record is matched by its value, and an
 * answer in another order than the request's is a warning (the mock answers in request order). A value sent that
 * no record carries is evidence.
 */
export function inRequestOrder(
  scope: CheckScope,
  answer: ApiAnswer,
  records: Json[] | undefined,
  sent: ReadonlyArray<{ value: string }>,
): Json[] | undefined {
  if (!records) return undefined
  const left = [...records]
  const ordered: Json[] = []
  for (const item of sent) {
    const at = left.findIndex((record) => record['value'] === item.value)
    if (!scope.expect(at >= 0, mismatch(answer, `a record with value ${JSON.stringify(item.value)}`))) return undefined
    ordered.push(...left.splice(at, 1))
  }
  if (ordered.some((record, index) => record !== records[index]))
    scope.warn(
      `${requestLine(answer.request)}: the records come in another order than the values were sent (the description gives no order; the mock answers in request order, and no profile setting changes it)`,
    )
  return ordered
}

/** Checks one field of a returned record. */
export function expectField(
  scope: CheckScope,
  answer: ApiAnswer,
  record: Json,
  field: string,
  expected: unknown,
): void {
  scope.expect(
    // The path's id in upper case is the same dimension: its spelling is schema.*'s warning.
    field === 'dimension_id' ? sameId(record[field], expected) : sameJson(record[field], expected),
    mismatch(
      answer,
      `${field} ${JSON.stringify(expected)} for ${String(record['value'])}`,
      `${field} ${JSON.stringify(record[field])}`,
    ),
  )
}

/** The unit in which a created_at of a value added now lies within a day of now: seconds, milliseconds, or neither. */
export function nowIn(value: number): 's' | 'ms' | undefined {
  const seconds = Date.now() / 1000
  const scales = { s: 1, ms: 1000 } as const
  return (['s', 'ms'] as const).find((unit) => Math.abs(value / scales[unit] - seconds) < 86_400)
}

/** Which defaults two values sent alone got, in words (the description leaves them open). */
export function describeDefaults(records: readonly Json[]): string {
  const [first, second] = records as [Json, Json]
  const display = first['display_name'] === first['value'] ? 'the value' : JSON.stringify(first['display_name'])
  const [a, b] = [first['sort_order'], second['sort_order']]
  const sort =
    typeof a === 'number' && b === a + 1
      ? `one more than the largest (${a}, then ${b})`
      : `${JSON.stringify(a)}, then ${JSON.stringify(b)}`
  return `display_name ${display}, value_metadata ${JSON.stringify(first['value_metadata'])}, sort_order ${sort}`
}
