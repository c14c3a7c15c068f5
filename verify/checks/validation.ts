import { randomUUID } from 'node:crypto'
import { bulkAdd, listPersonas, listRules } from '../client/api.js'
import { learnBounds, MOCK_BOUNDS } from '../drift/bounds.js'
import { NOT_A_STRING } from './bulk-probes.js'
import type { Check } from './check.js'
import type { VerifyContext } from '../context.js'
import { expectValidationError, mismatch, type Loc } from './expectations.js'
import { requestLine, type ApiAnswer } from '../client/http.js'
import { rulesPaging } from '../profile/rules-paging.js'

/**
 * Bodies that are not the documented shape at all, refused in every pydantic generation, and where the
 * 422 must point (a string where the list is due, no list, not JSON). No correct server can take them
 * as a write, so these run read-only too.
 */
const BAD_BODIES: Array<{ body: unknown; loc: Loc }> = [
  { body: { values: 'not a list' }, loc: ['body', 'values'] },
  { body: {}, loc: ['body', 'values'] },
  { body: '{"values": [', loc: ['body', 12] },
]

/**
 * A list whose one item is invalid (an object where a string is expected; not a number, which pydantic
 * 1 takes as its string). The description leaves a partly invalid list open: the mock refuses it with
 * 422, a server may skip the item and add the rest, so it is sent only with writes allowed.
 */
const BAD_ITEM: { body: unknown; loc: Loc } = {
  body: { values: [{ value: NOT_A_STRING }] },
  loc: ['body', 'values', 0, 'value'],
}

/** 422 answers to bad input, each pointing at the input at fault. */
export const validationChecks: Check[] = [
  {
    id: 'validation.limit-range',
    kind: 'contract',
    description: 'a limit of 0, 101 or "abc" gives 422 with a detail entry at ["query","limit"]',
    async run(scope) {
      for (const limit of ['0', '101', 'abc'])
        expectValidationError(scope, await scope.ctx.send(listPersonas(scope.ctx, { limit })), ['query', 'limit'])
    },
  },
  {
    id: 'validation.offset-range',
    kind: 'contract',
    description: 'an offset of -1 or "abc" gives 422 with a detail entry at ["query","offset"]',
    async run(scope) {
      for (const offset of ['-1', 'abc'])
        expectValidationError(scope, await scope.ctx.send(listPersonas(scope.ctx, { offset })), ['query', 'offset'])
    },
  },
  {
    id: 'validation.uuid',
    kind: 'contract',
    description: 'a malformed team_id or policy_id gives 422 at ["query","team_id"] or ["path","policy_id"]',
    async run(scope) {
      const { ctx } = scope
      const team = await ctx.send(listPersonas(ctx, { team_id: 'not-a-uuid' }))
      if (expectValidationError(scope, team, ['query', 'team_id'])) recordUuidMessage(ctx, team)
      const paging = await rulesPaging(ctx)
      expectValidationError(scope, await ctx.send(listRules(ctx, paging, {}, { policyId: 'not-a-uuid' })), [
        'path',
        'policy_id',
      ])
    },
  },
  {
    id: 'validation.body',
    kind: 'contract',
    description:
      'a bulk add body that is not {"values": [...]}, or not JSON, gives 422 pointing at the offending input; an invalid item is refused (the mock) or skipped (a choice)',
    needs: ['admin token'],
    async run(scope) {
      const { ctx } = scope
      // An unknown dimension: FastAPI validates the body before the endpoint looks the dimension up.
      for (const { body, loc } of BAD_BODIES)
        expectValidationError(scope, await ctx.send(bulkAdd(randomUUID(), body, ctx.credentials.admin!)), loc)
      if (!ctx.options.allowWrites || !ctx.ids.dimensionId)
        return scope.note(
          'an invalid item was not sent: a server may skip it and add the rest (pass --allow-writes and --dimension-id to send it)',
        )
      const answer = await ctx.send(bulkAdd(ctx.ids.dimensionId, BAD_ITEM.body, ctx.credentials.admin!))
      if (answer.status === 200 || answer.status === 201) return scope.warn(partlyInvalidChoice(answer))
      expectValidationError(scope, answer, BAD_ITEM.loc)
    },
  },
  {
    id: 'validation.bulk-limits',
    kind: 'contract',
    description: `the bulk add takes what the mock takes: ${MOCK_BOUNDS.bulkMaxItems} values, a value of ${MOCK_BOUNDS.valueMaxLength} characters, or declares the tighter bound it keeps (a profile finding)`,
    // Bodies of 1000 values and of a 255-character value: a server may write them (see bulk-probes.ts).
    needs: ['admin token', 'writes'],
    async run(scope) {
      const { probes: all, learned } = await learnBounds(scope.ctx)
      for (const name of ['bulkMaxItems', 'valueMaxLength'] as const) {
        const probes = all[name]
        const bound = learned[name]?.value
        if (!probes) scope.note(`${name}: the probes got no clear answer (neither 404 nor 422)`)
        else if (probes.edge.taken) continue
        // The description leaves these bounds open: a tighter one the server declares is a profile finding,
        // since the profile written (`bounds.<name>`) aligns the mock. A refused edge the profile cannot
        // express (no bound declared below it) still breaks a frontend built against the mock.
        else if (typeof bound === 'number' && bound < MOCK_BOUNDS[name])
          scope.warn(
            `${requestLine(probes.edge.answer.request)} answered ${probes.edge.answer.status}: the server keeps a tighter bound than the mock's ${MOCK_BOUNDS[name]} (a profile finding: bounds.${name}: ${bound} in the profile aligns the mock)`,
          )
        else
          scope.fail(
            mismatch(
              probes.edge.answer,
              'not a 422: the mock takes it (a server may be more lenient, or declare a tighter bound the profile takes)',
            ),
          )
      }
    },
  },
]

/** The UUID message tells pydantic 2.12 from 2.13 (`profile.pydantic`). */
function recordUuidMessage(ctx: VerifyContext, answer: ApiAnswer): void {
  const entry = (answer.json as { detail: Array<{ loc: unknown; msg: string }> }).detail.find(
    (item) => JSON.stringify(item.loc) === '["query","team_id"]',
  )
  if (entry) ctx.facts.uuidErrorMessage = { message: entry.msg, source: requestLine(answer.request) }
}

/** A partly invalid list answered 2xx: the server skips what it cannot take, where the mock refuses the request. */
export function partlyInvalidChoice(answer: ApiAnswer): string {
  const kept = Array.isArray(answer.json) ? answer.json.length : 'an unknown number of'
  return `${requestLine(answer.request)} with an invalid item answered ${answer.status} with ${kept} value(s): the server skips invalid items; the mock refuses the whole request with 422 (a choice: the description leaves a partly invalid list open; no profile setting changes it)`
}
