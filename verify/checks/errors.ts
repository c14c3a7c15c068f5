import { randomUUID } from 'node:crypto'
import { bulkAdd, listRules } from '../client/api.js'
import type { Check } from './check.js'
import { expectRefused } from './expectations.js'
import { rulesPaging } from '../profile/rules-paging.js'

/** Unknown resources: 404 with a detail. */
export const errorChecks: Check[] = [
  {
    id: 'errors.unknown-policy',
    kind: 'contract',
    description: 'the rules of a policy that does not exist give 404 with a detail, and no records',
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(listRules(ctx, await rulesPaging(ctx), {}, { policyId: randomUUID() }))
      if (expectRefused(scope, answer, [404])) ctx.recordErrorText('policyNotFound', answer)
    },
  },
  {
    id: 'errors.unknown-dimension',
    kind: 'contract',
    description: 'a bulk add to a dimension that does not exist gives 404 with a detail',
    needs: ['admin token'],
    async run(scope) {
      const { ctx } = scope
      // No values: a server that created the dimension on the fly would still add nothing.
      const answer = await ctx.send(bulkAdd(randomUUID(), { values: [] }, ctx.credentials.admin!))
      if (expectRefused(scope, answer, [404])) ctx.recordErrorText('dimensionNotFound', answer)
    },
  },
]
