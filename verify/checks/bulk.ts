import { NOT_A_STRING, requiredItemFields } from './bulk-probes.js'
import { duplicatesSent, expectDuplicatesChoice } from './bulk-duplicates.js'
import { add, addedRecords, inRequestOrder, describeDefaults, expectField, nowIn } from './bulk-writes.js'
import type { Check } from './check.js'
import { expectValidationError, isBulkAdded, mismatch } from './expectations.js'
import { partlyInvalidChoice } from './validation.js'
import { requestLine } from '../client/http.js'
import { isUuid } from '../client/crawl.js'

const WRITES = ['writes', 'admin token', 'dimension'] as const

/** The bulk add (only with writes allowed): defaults, returned records, duplicates, all or nothing. */
export const bulkChecks: Check[] = [
  {
    id: 'bulk.defaults',
    kind: 'contract',
    description:
      'a value sent alone comes back whole: display_name a string, value_metadata an object, sort_order an integer',
    needs: WRITES,
    async run(scope) {
      const { ctx } = scope
      const { fields } = await requiredItemFields(ctx)
      if (fields.length)
        scope.skip(`the server requires ${fields.join(', ')}: a value is never sent alone (profile.bulk-defaults)`)
      const values = [ctx.uniqueValue('default-a'), ctx.uniqueValue('default-b')]
      const sent = values.map((value) => ({ value }))
      const answer = await add(scope, sent)
      const records = inRequestOrder(scope, answer, addedRecords(scope, answer, 2), sent)
      if (!records) return
      const typed = { display_name: 'string', value_metadata: 'object', sort_order: 'integer' } as const
      for (const record of records) {
        for (const [field, type] of Object.entries(typed)) {
          const value = record[field]
          const ok =
            type === 'integer'
              ? Number.isInteger(value)
              : typeof value === type && value !== null && !Array.isArray(value)
          scope.expect(
            ok,
            mismatch(
              answer,
              `${field}: a default of type ${type} for ${String(record['value'])}`,
              `${field} ${JSON.stringify(value)}`,
            ),
          )
        }
        expectField(scope, answer, record, 'dimension_id', ctx.ids.dimensionId)
      }
      ctx.facts.bulkDefaults = { summary: describeDefaults(records), source: requestLine(answer.request) }
    },
  },
  {
    id: 'bulk.records',
    kind: 'contract',
    description:
      'the bulk add returns one record per value (matched by value; another order than the request order is a warning), with what was sent (metadata as value_metadata); created_at in a unit and epoch of its own is a warning',
    needs: WRITES,
    async run(scope) {
      const { ctx } = scope
      const sent = [
        {
          value: ctx.uniqueValue('record-a'),
          display_name: `Verify ${ctx.runId} A`,
          metadata: { source: 'agent-console-mock verify', nested: { n: 1, ok: true } },
          sort_order: 7,
        },
        { value: ctx.uniqueValue('record-b'), display_name: `Verify ${ctx.runId} B`, metadata: {}, sort_order: 9 },
      ]
      const answer = await add(scope, sent)
      const records = inRequestOrder(scope, answer, addedRecords(scope, answer, sent.length), sent)
      if (!records) return
      records.forEach((record, index) => {
        const item = sent[index]!
        for (const field of ['value', 'display_name', 'sort_order'] as const)
          expectField(scope, answer, record, field, item[field])
        expectField(scope, answer, record, 'value_metadata', item.metadata)
        expectField(scope, answer, record, 'dimension_id', ctx.ids.dimensionId)
        scope.expect(isUuid(record['id']), mismatch(answer, 'a UUID id', `id ${JSON.stringify(record['id'])}`))
        // Whether it is an integer is schema.bulk-values' business (the contract); its unit and epoch
        // are "not shown": one the mock cannot send is a choice, worth a warning.
        const created = record['created_at']
        if (Number.isInteger(created) && !nowIn(created as number))
          scope.warn(
            `${requestLine(answer.request)}: created_at ${created} of a value added now is not now in Unix seconds or milliseconds (another unit or epoch: the description leaves both open; the mock's timestampUnit takes s or ms)`,
          )
      })
      scope.expect(records[0]?.['id'] !== records[1]?.['id'], mismatch(answer, 'a different id for each value'))
    },
  },
  {
    id: 'bulk.duplicates',
    kind: 'contract',
    description:
      'a value already in the dimension, or repeated in the request, is skipped (2xx without it), rejects the request (a 4xx, nothing added; the mock: 409) or is stored again (2xx with every value, each its own record)',
    needs: WRITES,
    async run(scope) {
      const { ctx } = scope
      const probe = { existing: ctx.uniqueValue('duplicate-old'), fresh: ctx.uniqueValue('duplicate-new') }
      if (!addedRecords(scope, await add(scope, [{ value: probe.existing }]), 1)) return
      const answer = await add(
        scope,
        duplicatesSent(probe).map((value) => ({ value })),
      )
      await expectDuplicatesChoice(scope, answer, probe)
    },
  },
  {
    id: 'bulk.all-or-nothing',
    kind: 'contract',
    description:
      'a bulk add with one invalid item that is refused (the mock: 422) adds none of the valid ones; skipping the invalid item instead is a choice',
    needs: WRITES,
    async run(scope) {
      const kept = scope.ctx.uniqueValue('atomic')
      const refused = await add(scope, [{ value: kept }, { value: NOT_A_STRING }])
      // The description leaves a partly invalid list open: what must hold is that a refusal adds nothing.
      if (isBulkAdded(refused)) return scope.warn(partlyInvalidChoice(refused))
      if (!expectValidationError(scope, refused, ['body', 'values', 1, 'value'])) return
      const again = await add(scope, [{ value: kept }])
      const records = addedRecords(scope, again, 1)
      if (records) expectField(scope, again, records[0]!, 'value', kept)
    },
  },
]
