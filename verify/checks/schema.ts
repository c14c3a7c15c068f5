import { bulkAdd } from '../client/api.js'
import type { Check, CheckScope } from './check.js'
import type { Crawl } from '../client/crawl.js'
import { expectBulkAdded, expectShape } from './expectations.js'
import { partialNote, personaReference, rulesReference } from './reference-sets.js'
import {
  DEMOGRAPHIC_VALUES,
  OPTIONAL_PERSONA_FIELDS,
  PERSONA_LIST,
  RULE_LIST,
  type SchemaPair,
} from '../schema/responses.js'
import { expectNoForgottenFields } from './omitted-fields.js'

/** Every page read validates: a missing field, a wrong type or a non-integer timestamp fails; an unknown field warns. */
function expectPagesValid(scope: CheckScope, crawl: Crawl, pair: SchemaPair): void {
  if (crawl.problem) {
    scope.fail(crawl.problem)
    return
  }
  for (const { answer } of crawl.pages) expectShape(scope, answer, pair)
  if (!crawl.complete) scope.note(partialNote(pair.name, crawl))
}

/** Every record list and bulk answer against the contract's schemas. */
export const schemaChecks: Check[] = [
  {
    id: 'schema.persona-list',
    kind: 'contract',
    description:
      'every page of personas is a PersonaListResponse: each field present with its type, timestamps integers',
    needs: ['team'],
    async run(scope) {
      const crawl = await personaReference(scope.ctx)
      expectPagesValid(scope, crawl, PERSONA_LIST)
      if (!crawl.problem) expectNoForgottenFields(scope, crawl, OPTIONAL_PERSONA_FIELDS)
    },
  },
  {
    id: 'schema.rule-list',
    kind: 'contract',
    description:
      'every page of policy rules is a rules list response: each field present with its type, timestamps integers',
    needs: ['policy'],
    run: async (scope) => expectPagesValid(scope, await rulesReference(scope.ctx), RULE_LIST),
  },
  {
    id: 'schema.bulk-values',
    kind: 'contract',
    description: 'the bulk add answers an array of DemographicValue records, each field present with its type',
    needs: ['writes', 'admin token', 'dimension'],
    async run(scope) {
      const { ctx } = scope
      // Every field sent: which ones a server requires, and their defaults, are bulk.defaults' business.
      const value = ctx.uniqueValue('schema')
      const item = { value, display_name: value, metadata: {}, sort_order: 1 }
      const answer = await ctx.send(bulkAdd(ctx.ids.dimensionId!, { values: [item] }, ctx.credentials.admin!))
      if (expectBulkAdded(scope, answer, 'with the added value')) expectShape(scope, answer, DEMOGRAPHIC_VALUES)
    },
  },
]
