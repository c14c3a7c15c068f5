import { bulkAdd } from '../api.js'
import type { Check, CheckScope } from '../check.js'
import { isRecord, type Json } from '../crawl.js'
import { expectRefused, expectStatus, expectValidationError, mismatch, sameJson } from '../expectations.js'
import { requestLine, type ApiAnswer } from '../http-client.js'

const WRITES = ['writes', 'admin token', 'dimension'] as const
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Adds values to the run's dimension as the admin; notes the success status for the profile. */
async function add(scope: CheckScope, values: unknown[]): Promise<ApiAnswer> {
  const { ctx } = scope
  const answer = await ctx.send(bulkAdd(ctx.ids.dimensionId!, { values }, ctx.credentials.admin!))
  if ((answer.status === 200 || answer.status === 201) && !ctx.facts.bulkAddStatus) {
    ctx.facts.bulkAddStatus = { value: answer.status, source: `${requestLine(answer.request)} answered ${answer.status}` }
  }
  return answer
}

/** The records of a successful add, or undefined with the evidence recorded. */
function addedRecords(scope: CheckScope, answer: ApiAnswer, count: number): Json[] | undefined {
  if (!expectStatus(scope, answer, [200, 201], `200 or 201 with ${count} added value(s)`)) return undefined
  const records = Array.isArray(answer.json) ? answer.json.filter(isRecord) : []
  return scope.expect(records.length === count, mismatch(answer, `an array of ${count} record(s), one per value added`)) ? records : undefined
}

/** Checks one field of a returned record. */
function expectField(scope: CheckScope, answer: ApiAnswer, record: Json, field: string, expected: unknown): void {
  scope.expect(sameJson(record[field], expected), mismatch(answer, `${field} ${JSON.stringify(expected)} for ${String(record['value'])}`, `${field} ${JSON.stringify(record[field])}`))
}

/** Seconds or milliseconds, a created_at of a value added now lies within a day of now. */
function isNow(value: unknown): boolean {
  const seconds = Date.now() / 1000
  return [1, 1000].some((scale) => Math.abs((value as number) / scale - seconds) < 86_400)
}

/** The bulk add (only with writes allowed): defaults, returned records, duplicates, all or nothing. */
export const bulkChecks: Check[] = [
  {
    id: 'bulk.defaults',
    description: 'a value sent alone gets display_name = value, value_metadata {} and sort_order = the largest + 1, item by item',
    needs: WRITES,
    async run(scope) {
      const values = [scope.ctx.uniqueValue('default-a'), scope.ctx.uniqueValue('default-b')]
      const answer = await add(scope, values.map((value) => ({ value })))
      const records = addedRecords(scope, answer, 2)
      if (!records) return
      for (const record of records) {
        expectField(scope, answer, record, 'display_name', record['value'])
        expectField(scope, answer, record, 'value_metadata', {})
        expectField(scope, answer, record, 'dimension_id', scope.ctx.ids.dimensionId)
      }
      const [first, second] = records.map((record) => record['sort_order'])
      const consecutive = Number.isInteger(first) && second === (first as number) + 1
      scope.expect(consecutive, mismatch(answer, 'two integer sort_orders, the second one more than the first', `sort_order ${JSON.stringify(first)} then ${JSON.stringify(second)}`))
    },
  },
  {
    id: 'bulk.records',
    description: 'the bulk add returns one record per value, in request order, with what was sent (metadata as value_metadata)',
    needs: WRITES,
    async run(scope) {
      const { ctx } = scope
      const sent = [
        { value: ctx.uniqueValue('record-a'), display_name: `Verify ${ctx.runId} A`, metadata: { source: 'agent-console-mock verify', nested: { n: 1, ok: true } }, sort_order: 7 },
        { value: ctx.uniqueValue('record-b'), display_name: `Verify ${ctx.runId} B`, metadata: {}, sort_order: 9 },
      ]
      const answer = await add(scope, sent)
      const records = addedRecords(scope, answer, sent.length)
      if (!records) return
      records.forEach((record, index) => {
        const item = sent[index]!
        for (const field of ['value', 'display_name', 'sort_order'] as const) expectField(scope, answer, record, field, item[field])
        expectField(scope, answer, record, 'value_metadata', item.metadata)
        expectField(scope, answer, record, 'dimension_id', ctx.ids.dimensionId)
        scope.expect(typeof record['id'] === 'string' && UUID.test(record['id']), mismatch(answer, 'a UUID id', `id ${JSON.stringify(record['id'])}`))
        // Whether it is an integer at all is schema.bulk-values' business; here, whether it is now.
        if (Number.isInteger(record['created_at'])) scope.expect(isNow(record['created_at']), mismatch(answer, 'created_at: now, in seconds or milliseconds', `created_at ${JSON.stringify(record['created_at'])}`))
      })
      scope.expect(records[0]?.['id'] !== records[1]?.['id'], mismatch(answer, 'a different id for each value'))
    },
  },
  {
    id: 'bulk.duplicates',
    description: 'a value already in the dimension, or repeated in the request, is skipped (2xx without it) or rejects the request (409, nothing added)',
    needs: WRITES,
    async run(scope) {
      const { ctx } = scope
      const [existing, fresh] = [ctx.uniqueValue('duplicate-old'), ctx.uniqueValue('duplicate-new')]
      if (!addedRecords(scope, await add(scope, [{ value: existing }]), 1)) return
      const answer = await add(scope, [{ value: existing }, { value: fresh }, { value: fresh }])
      if (answer.status === 409) return expectRejected(scope, answer, fresh)
      const records = addedRecords(scope, answer, 1)
      if (records) expectField(scope, answer, records[0]!, 'value', fresh)
      if (records && records[0]!['value'] === fresh) ctx.facts.bulkDuplicates = { value: 'skip', source: `${requestLine(answer.request)} answered ${answer.status} with only the new value, once` }
    },
  },
  {
    id: 'bulk.all-or-nothing',
    description: 'a bulk add with one invalid item gives 422 and adds none of the valid ones',
    needs: WRITES,
    async run(scope) {
      const kept = scope.ctx.uniqueValue('atomic')
      const refused = await add(scope, [{ value: kept }, { value: 5 }])
      if (!expectValidationError(scope, refused, ['body', 'values', 1, 'value'])) return
      const again = await add(scope, [{ value: kept }])
      const records = addedRecords(scope, again, 1)
      if (records) expectField(scope, again, records[0]!, 'value', kept)
    },
  },
]

/** 409 with a detail, and the rejected request added nothing: its new value can be added afterwards. */
async function expectRejected(scope: CheckScope, answer: ApiAnswer, fresh: string): Promise<void> {
  if (!expectRefused(scope, answer, [409])) return
  const again = await add(scope, [{ value: fresh }])
  const records = addedRecords(scope, again, 1)
  if (!records) return
  scope.ctx.facts.bulkDuplicates = { value: 'reject', source: `${requestLine(answer.request)} answered 409` }
  scope.ctx.recordErrorText('duplicate values', answer)
}
