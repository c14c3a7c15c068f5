import { randomUUID } from 'node:crypto'
import { bulkAdd, listPersonas, listRules } from '../client/api.js'
import { MOCK_BOUNDS } from '../drift/bounds.js'
import { bodyReadFirst, dimensionLookedUpFirst, NOT_A_STRING } from './bulk-probes.js'
import { bulkLimitsCheck } from './bulk-limits.js'
import type { Check, CheckScope } from './check.js'
import type { VerifyContext } from '../context.js'
import { expectValidationError, isBulkAdded, mismatch, type Loc } from './expectations.js'
import { describeAnswer, requestLine, type ApiAnswer } from '../client/http.js'
import { limitProbes } from '../drift/list-bounds.js'
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
    description: 'a limit of 100 is taken; 0, 101 or "abc" gives 422 with a detail entry at ["query","limit"]',
    async run(scope) {
      // The description's range is 1 to 100: a server keeping a lower maximum refuses what the mock takes. This is
      // the one check that judges it; the others page with the server's maximum (drift/list-bounds.ts).
      const probes = await limitProbes(scope.ctx, 'personas')
      if (probes && !probes.edge.taken)
        scope.fail(
          mismatch(
            probes.edge.answer,
            `a page: the description's limit range is 1 to ${MOCK_BOUNDS.personasLimitMax}, and the mock takes ${MOCK_BOUNDS.personasLimitMax}`,
            `${describeAnswer(probes.edge.answer)}${probes.enforced ? ` (the server takes at most ${probes.enforced.value})` : ''}`,
          ),
        )
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
    description:
      'a malformed team_id, policy_id or dimension_id gives 422 at ["query","team_id"], ["path","policy_id"] or ["path","dimension_id"] (the last with an admin token, and an empty list to add); the team_id in upper case is taken',
    async run(scope) {
      const { ctx } = scope
      const team = await ctx.send(listPersonas(ctx, { team_id: 'not-a-uuid' }))
      if (expectValidationError(scope, team, ['query', 'team_id'])) recordUuidMessage(ctx, team)
      const paging = await rulesPaging(ctx)
      expectValidationError(scope, await ctx.send(listRules(ctx, paging, {}, { policyId: 'not-a-uuid' })), [
        'path',
        'policy_id',
      ])
      await expectUpperCaseTaken(scope)
      const admin = ctx.credentials.admin
      if (!admin) return scope.note('dimension_id was not sent malformed: no --admin-token')
      // Nothing to add: even a server that took the id as it is would write nothing.
      const dimension = await ctx.send(bulkAdd('not-a-uuid', { values: [] }, admin))
      expectValidationError(scope, dimension, ['path', 'dimension_id'])
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
      const dimension = await badBodiesDimension(ctx)
      if (!dimension.id) return scope.warn(`not judged: ${dimension.why}; pass --dimension-id to send them there`)
      for (const { body, loc } of BAD_BODIES)
        expectValidationError(scope, await ctx.send(bulkAdd(dimension.id, body, ctx.credentials.admin!)), loc)
      if (!ctx.options.allowWrites || !ctx.ids.dimensionId)
        return scope.note(
          'an invalid item was not sent: a server may skip it and add the rest (pass --allow-writes and --dimension-id to send it)',
        )
      const answer = await ctx.send(bulkAdd(ctx.ids.dimensionId, BAD_ITEM.body, ctx.credentials.admin!))
      if (isBulkAdded(answer)) return scope.warn(partlyInvalidChoice(answer))
      expectValidationError(scope, answer, BAD_ITEM.loc)
    },
  },
  bulkLimitsCheck,
]

/**
 * Where the bodies no server can take are sent: a dimension that does not exist, where FastAPI reads the body before
 * the endpoint looks the dimension up; the run's own dimension on a server that looks it up first (nothing is
 * written: a correct server refuses them all).
 */
async function badBodiesDimension(ctx: VerifyContext): Promise<{ id?: string; why?: string }> {
  if ((await bodyReadFirst(ctx)).first) return { id: randomUUID() }
  return ctx.ids.dimensionId ? { id: ctx.ids.dimensionId } : { why: await dimensionLookedUpFirst(ctx) }
}

/**
 * The token's team_id in upper case is the same team: RFC 4122 reads a UUID's hex digits in either case on input, and
 * pydantic's UUID does. A server comparing it as text refuses its own team.
 */
async function expectUpperCaseTaken(scope: CheckScope): Promise<void> {
  const { ctx } = scope
  const teamId = ctx.ids.teamId
  if (!teamId) return
  const answer = await ctx.send(listPersonas(ctx, { team_id: teamId.toUpperCase(), limit: 1 }))
  scope.expect(
    answer.status >= 200 && answer.status < 300,
    mismatch(answer, `a page: ${teamId.toUpperCase()} is the token's team_id in upper case, the same UUID`),
  )
}

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
