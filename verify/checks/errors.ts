import { randomUUID } from 'node:crypto'
import { bulkAdd, listRules } from '../client/api.js'
import type { Check } from './check.js'
import { expectRefused, isBulkAdded } from './expectations.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { requestLine } from '../client/http.js'

/** Unknown resources: refused (the mock: 404 with a detail). */
export const errorChecks: Check[] = [
  {
    id: 'errors.unknown-policy',
    kind: 'contract',
    description: 'the rules of a policy that does not exist are refused (the mock: 404 with a detail), and no records',
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(listRules(ctx, await rulesPaging(ctx), {}, { policyId: randomUUID() }))
      if (expectRefused(scope, answer, [404])) ctx.recordErrorText('policyNotFound', answer)
    },
  },
  {
    id: 'errors.unknown-dimension',
    kind: 'contract',
    description:
      'a bulk add to a dimension that does not exist is refused (the mock: 404 with a detail) or taken (a choice)',
    // A server may create a dimension on its first bulk add (the description leaves an unknown dimension
    // open): even an empty list could write, so a read-only run never sends it.
    needs: ['admin token', 'writes'],
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(bulkAdd(randomUUID(), { values: [] }, ctx.credentials.admin!))
      if (isBulkAdded(answer))
        return scope.warn(
          `${requestLine(answer.request)} answered ${answer.status}: the server takes a dimension it did not know; the mock answers 404 {"detail": "Dimension not found"} (a choice: the description leaves an unknown dimension open; no profile setting changes it)`,
        )
      if (expectRefused(scope, answer, [404])) ctx.recordErrorText('dimensionNotFound', answer)
    },
  },
]
