import { listPersonas } from '../client/api.js'
import { learnBounds } from '../drift/bounds.js'
import { requiredItemFields } from './bulk-probes.js'
import type { Check } from './check.js'
import { declaredErrors, declaredIntents } from '../drift/declared.js'
import { describeRequest } from '../client/http.js'
import { serverOpenApi } from '../drift/openapi-source.js'
import type { Bounds } from '../profile/settings.js'
import { detect, observe, undetermined } from './profile-support.js'

const UNKNOWN_INTENT = 'zz-agent-console-mock-verify'
const MOCK_DEFAULTS = /^display_name the value, value_metadata \{\}, sort_order one more than the largest/

/** Settings the server shows where the description is silent or the server is more lenient. */
export const learnedChecks: Check[] = [
  {
    id: 'profile.intents',
    kind: 'choice',
    description: 'how intents is validated: any string (an unknown one matches nothing, the mock) or the enum (422)',
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(listPersonas(ctx, { intents: [UNKNOWN_INTENT], limit: 1 }))
      const { document } = await serverOpenApi(ctx)
      const declared = document ? declaredIntents(document) : undefined
      const shown = answer.status === 422 ? 'enum' : answer.status === 200 ? 'string' : undefined
      if (shown && declared && shown !== declared)
        scope.warn(`/openapi.json declares intents as ${declared}, the server validates it as ${shown}`)
      const value = shown ?? declared
      if (!value)
        undetermined(
          scope,
          'intents',
          `${describeRequest(answer.request)} answered ${answer.status}, and /openapi.json does not say`,
        )
      detect(
        scope,
        'intents',
        value,
        shown ? `${describeRequest(answer.request)} answered ${answer.status}` : 'GET /openapi.json',
      )
    },
  },
  {
    id: 'profile.bounds',
    kind: 'choice',
    description:
      'the bounds the server declares or enforces where the mock has one (none: more lenient, written as null)',
    async run(scope) {
      const { learned } = await learnBounds(scope.ctx)
      const names = Object.keys(learned) as Array<keyof Bounds>
      if (names.length === 0) undetermined(scope, 'bounds', 'no /openapi.json, and the probes got no clear answer')
      const bounds = Object.fromEntries(names.map((name) => [name, learned[name]!.value]))
      for (const name of names)
        if (learned[name]!.value === null)
          scope.warn(`${name}: no bound (the mock has one): more lenient than the mock`)
      detect(scope, 'bounds', bounds, names.map((name) => `${name}: ${learned[name]!.source}`).join('; '))
    },
  },
  {
    id: 'profile.declared-errors',
    kind: 'choice',
    description: 'the error answers /openapi.json declares beyond the 422, per operation',
    needs: ['openapi'],
    async run(scope) {
      const { document } = await serverOpenApi(scope.ctx)
      detect(scope, 'declaredErrors', declaredErrors(document!), 'the responses of each operation in GET /openapi.json')
    },
  },
  {
    id: 'profile.bulk-defaults',
    kind: 'choice',
    description:
      'which bulk item fields the server requires, and the defaults of the others (the description leaves both open)',
    needs: ['admin token'],
    async run(scope) {
      const { ctx } = scope
      const { fields, source, probed } = await requiredItemFields(ctx)
      if (!probed) scope.skip(`which item fields the server requires was ${source}`)
      if (fields.length) {
        observe(scope, 'bulk item fields', `value, ${fields.join(', ')} required (${source})`)
        return scope.warn(
          `a frontend that sends only value, as the mock allows, gets 422 here: the server requires ${fields.join(', ')}`,
        )
      }
      observe(scope, 'bulk item fields', 'value alone is enough')
      const seen = ctx.facts.bulkDefaults
      if (!seen)
        return scope.note('the defaults were not seen: no value was added (read-only run, or bulk.defaults failed)')
      observe(scope, 'bulk defaults', `${seen.summary} (${seen.source})`)
      if (!MOCK_DEFAULTS.test(seen.summary))
        scope.warn(
          `a value sent alone gets ${seen.summary}; the mock: display_name the value, value_metadata {}, sort_order one more than the largest`,
        )
    },
  },
]
