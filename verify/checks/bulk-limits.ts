import { learnBounds, MOCK_BOUNDS } from '../drift/bounds.js'
import { dimensionLookedUpFirst } from './bulk-probes.js'
import type { VerifyContext } from '../context.js'
import type { Check } from './check.js'
import { mismatch } from './expectations.js'
import { describeAnswer, requestLine } from '../client/http.js'

/**
 * The bulk add's bounds: the description leaves the maximum number of values, and the length of a value, open
 * ("not shown"). A server that keeps a tighter bound is a profile finding when verify learns it (declared in
 * /openapi.json, or found by probing below the refused edge): `bounds.<name>` in the profile aligns the mock.
 * It fails only where no profile can align a frontend: the server refuses what its own /openapi.json declares it
 * takes, or no bound could be found at all.
 */
export const bulkLimitsCheck: Check = {
  id: 'validation.bulk-limits',
  kind: 'contract',
  description: `the bulk add takes what the mock takes: ${MOCK_BOUNDS.bulkMaxItems} values, a value of ${MOCK_BOUNDS.valueMaxLength} characters, or keeps a tighter bound the profile takes (a profile finding)`,
  // Bodies of 1000 values and of a 255-character value: a server may write them (see bulk-probes.ts).
  needs: ['admin token', 'writes'],
  async run(scope) {
    const { probes: all, learned, declared } = await learnBounds(scope.ctx)
    for (const name of ['bulkMaxItems', 'valueMaxLength'] as const) {
      const probes = all[name]
      const bound = learned[name]?.value
      const said = declared[name]
      if (!probes) scope.note(`${name}: ${await noClearAnswer(scope.ctx)}`)
      else if (probes.edge.taken) continue
      else if (typeof bound !== 'number' || bound >= MOCK_BOUNDS[name])
        scope.fail(
          mismatch(
            probes.edge.answer,
            'not a 422: the mock takes it (a server may be more lenient, or keep a tighter bound the profile takes)',
            `${describeAnswer(probes.edge.answer)}; no bound below it was found (1 refused, or an unclear answer)`,
          ),
        )
      // A document that declares more than the server takes misleads a client built from it, profile or not.
      else if (typeof said === 'number' && said > bound)
        scope.fail(
          mismatch(
            probes.edge.answer,
            `what GET /openapi.json declares the server takes (${name} ${said})`,
            `${probes.edge.answer.status}: the server takes at most ${bound}`,
          ),
        )
      else
        scope.warn(
          `${requestLine(probes.edge.answer.request)} answered ${probes.edge.answer.status}: the server keeps a tighter bound than the mock's ${MOCK_BOUNDS[name]}${said === bound ? '' : ', not declared in /openapi.json'} (a profile finding: bounds.${name}: ${bound} in the profile aligns the mock)`,
        )
    }
  },
}

/** Why the probes of a bound got no clear answer. */
async function noClearAnswer(ctx: VerifyContext): Promise<string> {
  const why = await dimensionLookedUpFirst(ctx)
  return why
    ? `not probed: ${why} (a bound /openapi.json declares is still read)`
    : 'the probes got no clear answer (neither 404, 2xx nor a 422 at the body)'
}
