import { randomUUID } from 'node:crypto'
import { bulkAdd, listPersonas, listRules } from '../client/api.js'
import type { Check, CheckScope } from './check.js'
import { TAMPERED_TOKEN_SHELL, UNSIGNED_TOKEN_SHELL } from '../client/curl.js'
import { TOKEN_VARIABLES } from '../context.js'
import { expectRefused } from './expectations.js'
import { NO_CREDENTIAL, requestLine, type ApiAnswer, type Credential } from '../client/http.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { otherTeamCheck } from './other-team.js'
import { tamperedToken, unsignedToken } from '../client/forged-tokens.js'

const REFUSED = [401, 403]

/** The three operations, asked with a credential the server must refuse (unknown ids: a refusal comes before any lookup). */
async function askEverything(scope: CheckScope, auth: Credential): Promise<ApiAnswer[]> {
  const { ctx } = scope
  const paging = await rulesPaging(ctx)
  return [
    await ctx.send(listPersonas(ctx, {}, auth)),
    await ctx.send(listRules(ctx, paging, {}, { policyId: ctx.ids.policyId ?? randomUUID(), auth })),
    await ctx.send(bulkAdd(randomUUID(), { values: [] }, auth)),
  ]
}

/** A page answered where the mock refuses: a choice the description leaves open, where a check says so. */
const answeredAnyway = (answer: ApiAnswer) =>
  answer.status >= 200 && answer.status < 300 && Array.isArray((answer.json as { results?: unknown })?.results)

/** Refusals: no token, a bad token, a wrong scheme, no permission, another team, not a super admin. */
export const authChecks: Check[] = [
  {
    id: 'auth.no-token',
    kind: 'contract',
    description: 'every operation refuses a request without Authorization (the mock: 401 or 403) and returns nothing',
    async run(scope) {
      const answers = await askEverything(scope, NO_CREDENTIAL)
      for (const answer of answers) expectRefused(scope, answer, REFUSED)
      const [personas] = answers
      if (!personas || !REFUSED.includes(personas.status)) return
      scope.ctx.facts.missingCredentialsStatus = {
        value: personas.status,
        source: `${requestLine(personas.request)} without a token answered ${personas.status}`,
      }
      scope.ctx.recordErrorText('notAuthenticated', personas)
      if (new Set(answers.map((answer) => answer.status)).size > 1)
        scope.warn(
          `the operations refuse a missing token with different statuses: ${answers.map((answer) => answer.status).join(', ')}`,
        )
      if (personas.status === 401 && !personas.headers.get('www-authenticate'))
        scope.warn('a 401 without a WWW-Authenticate header (FastAPI ≥0.122 sends "Bearer")')
    },
  },
  {
    id: 'auth.malformed-token',
    kind: 'contract',
    description:
      'a token that is not a JWT, one whose signature is wrong, or one unsigned (alg none) is refused (the mock: 401 or 403) and gets nothing',
    async run(scope) {
      const { ctx } = scope
      const malformed = { label: 'malformed token "not-a-jwt"', header: 'Bearer not-a-jwt', shell: 'Bearer not-a-jwt' }
      const garbage = await ctx.send(listPersonas(ctx, {}, malformed))
      if (expectRefused(scope, garbage, REFUSED)) ctx.recordErrorText('invalidToken', garbage)
      const forged = {
        label: 'the token with one signature character changed',
        header: `Bearer ${tamperedToken(ctx.options.token)}`,
        shell: `Bearer ${TAMPERED_TOKEN_SHELL}`,
      }
      expectRefused(scope, await ctx.send(listPersonas(ctx, {}, forged)), REFUSED)
      // decisions.md: an alg other than HS256 is refused; "none" is the classic way past a lax JWT library.
      const unsigned = {
        label: 'the token\'s claims unsigned (header {"alg":"none"})',
        header: `Bearer ${unsignedToken(ctx.options.token)}`,
        shell: `Bearer ${UNSIGNED_TOKEN_SHELL}`,
      }
      expectRefused(scope, await ctx.send(listPersonas(ctx, {}, unsigned)), REFUSED)
    },
  },
  {
    id: 'auth.wrong-scheme',
    kind: 'contract',
    description:
      'the token under another scheme than Bearer is refused (the mock: 401 or 403), or, taken there, a forged one is still refused',
    async run(scope) {
      const { ctx } = scope
      const basic = {
        label: 'the token as "Basic <token>"',
        header: `Basic ${ctx.options.token}`,
        shell: `Basic $${TOKEN_VARIABLES.token}`,
      }
      const answer = await ctx.send(listPersonas(ctx, {}, basic))
      // "How the JWT is sent (header name, scheme): not shown": a server that reads the valid token under another
      // scheme word is more lenient than the mock, not open. It must still refuse what is not a valid token.
      if (answer.status >= 200 && answer.status < 300) {
        const forged = {
          label: 'the token with one signature character changed, as "Basic <token>"',
          header: `Basic ${tamperedToken(ctx.options.token)}`,
          shell: `Basic ${TAMPERED_TOKEN_SHELL}`,
        }
        if (!expectRefused(scope, await ctx.send(listPersonas(ctx, {}, forged)), REFUSED)) return
        return scope.warn(
          `${requestLine(answer.request)} with the token as "Basic <token>" answered ${answer.status}: the server takes the JWT under another scheme word (more lenient than the mock, which refuses it with 401 or 403; the description leaves the scheme open, and no profile setting changes it)`,
        )
      }
      if (expectRefused(scope, answer, REFUSED)) ctx.recordErrorText('wrongScheme', answer)
    },
  },
  {
    id: 'auth.no-permission',
    kind: 'contract',
    description:
      'a token without persona:read is refused the personas (the mock: 403) and gets nothing; one without policy:read is refused the rules, or a warning (the description names no permission for them)',
    needs: ['no-permission token'],
    async run(scope) {
      const { ctx } = scope
      const auth = ctx.credentials.noPermission!
      const personas = await ctx.send(listPersonas(ctx, {}, auth))
      if (expectRefused(scope, personas, [403]))
        ctx.recordErrorText('missingPermission', personas, { permission: 'persona:read' })
      const paging = await rulesPaging(ctx)
      const rules = await ctx.send(listRules(ctx, paging, {}, { policyId: ctx.ids.policyId ?? randomUUID(), auth }))
      // "The permission required to list policy rules: not shown": the mock's policy:read is its own guess.
      if (answeredAnyway(rules))
        return scope.warn(
          `${requestLine(rules.request)} with a token without permissions answered ${rules.status}: the server lists rules without a permission the token lacks; the mock requires policy:read (decisions.md: the description names no permission for the rules, and no profile setting changes it)`,
        )
      expectRefused(scope, rules, [403])
    },
  },
  otherTeamCheck,
  {
    id: 'auth.other-team-policy',
    kind: 'contract',
    description:
      'the rules of a policy of another team are refused (403 or 404 without a warning) and none is returned; answered, a warning (the description does not scope policies to teams)',
    needs: ['other policy'],
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(listRules(ctx, await rulesPaging(ctx), {}, { policyId: ctx.ids.otherPolicyId! }))
      // The description scopes personas to a team, not policies: the mock's 404 for another team's is its own guess.
      if (answeredAnyway(answer))
        return scope.warn(
          `${requestLine(answer.request)} answered ${answer.status}: the server lists the rules of another team's policy; the mock answers 404 (decisions.md: the description does not scope policies to teams, and no profile setting changes it)`,
        )
      expectRefused(scope, answer, [403, 404])
      // A refusal is due whether the id is another team's policy or none at all; only the former shows team scope.
      const unconfirmed = ctx.facts.otherPolicyUnconfirmed
      if (unconfirmed)
        scope.warn(
          `--other-policy-id ${ctx.ids.otherPolicyId} could not be confirmed a policy of another team (${unconfirmed}): its refusal shows no more than an unknown policy's`,
        )
    },
  },
  {
    id: 'auth.bulk-requires-admin',
    kind: 'contract',
    description: 'the bulk add refuses a token that is not a super admin (the mock: 403)',
    async run(scope) {
      const { ctx } = scope
      if (ctx.options.adminToken === ctx.options.token) scope.skip('the token is the admin token')
      // No values: nothing could be added even by a server that let the token through. The dimension
      // must exist for a 2xx to show that: a 404 to an unknown one may come before the permission.
      const dimension = ctx.ids.dimensionId ?? randomUUID()
      const answer = await ctx.send(bulkAdd(dimension, { values: [] }, ctx.credentials.token))
      if (!ctx.ids.dimensionId && answer.status === 404)
        return scope.note(
          `${requestLine(answer.request)} answered 404: a dimension that does not exist does not show the permission (pass --dimension-id)`,
        )
      if (expectRefused(scope, answer, [403])) ctx.recordErrorText('superAdminRequired', answer)
    },
  },
]
