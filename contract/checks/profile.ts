import { DEFAULT_PROFILE, type Profile } from '../../model/profile.js'
import type { Check, CheckScope } from '../check.js'
import { detectOrdering, PERSONA_ORDERINGS, RULE_ORDERINGS, type Ordering } from '../ordering.js'
import { serverOpenApi } from '../openapi-source.js'
import { mockErrorTexts, pydanticOf, timestampsOf, timestampUnitOf } from '../profile-detection.js'
import { personaReference, rulesReference } from '../reference.js'
import { rulesPaging } from '../rules-paging.js'
import type { Crawl } from '../crawl.js'

/**
 * Where the description is silent, a server may answer either way: these checks never fail.
 * They say which value the server shows (written to the profile file), or skip saying why not.
 */

function detect<K extends keyof Profile>(scope: CheckScope, setting: K, value: Profile[K] | Partial<Profile[K]>, source: string): void {
  scope.ctx.profile.detected[setting] = { value, source }
  const fallback = JSON.stringify(DEFAULT_PROFILE[setting])
  scope.note(`${setting}: ${JSON.stringify(value)} (mock default ${fallback}), from ${source}`)
}

function undetermined(scope: CheckScope, setting: keyof Profile, reason: string): never {
  scope.ctx.profile.undetermined[setting] = reason
  return scope.skip(`${setting} not seen: ${reason}; the mock's default stays`)
}

/** An order the mock has no setting for: observed, and a warning when it is not the mock's. */
function observeOrder(scope: CheckScope, what: string, crawl: Crawl, orderings: readonly Ordering[]): void {
  if (crawl.problem || crawl.records.length < 2) scope.skip(`too few ${what} were read to see an order`)
  const found = detectOrdering(crawl.records, orderings)
  const order = found?.name ?? 'none of the known orders'
  scope.ctx.profile.observations[`${what} order`] = order
  scope.note(`${what}: ${order}`)
  if (found !== orderings[0]) scope.warn(`${what} come in ${order}; the mock lists them by ${orderings[0]!.name} (no profile setting changes that)`)
}

/** The profile settings and observations (they run after the checks whose answers they read). */
export const profileChecks: Check[] = [
  {
    id: 'profile.missing-credentials-status',
    description: 'which status refuses a missing token: 401 (FastAPI ≥0.122) or 403 (≤0.121)',
    async run(scope) {
      const seen = scope.ctx.facts.missingCredentialsStatus
      if (!seen) undetermined(scope, 'missingCredentialsStatus', 'a request without a token was not refused with 401 or 403')
      detect(scope, 'missingCredentialsStatus', seen.value as 401 | 403, seen.source)
    },
  },
  {
    id: 'profile.bulk-add-status',
    description: 'the success status of the bulk add: 201 or 200',
    async run(scope) {
      const seen = scope.ctx.facts.bulkAddStatus ?? (await documentedBulkStatus(scope))
      if (!seen) undetermined(scope, 'bulkAddStatus', 'no value was added (read-only run) and /openapi.json does not say')
      detect(scope, 'bulkAddStatus', seen.value as 200 | 201, seen.source)
    },
  },
  {
    id: 'profile.bulk-duplicates',
    description: 'what a duplicate value does to a bulk add: skipped, or the request rejected',
    async run(scope) {
      const seen = scope.ctx.facts.bulkDuplicates
      if (!seen) undetermined(scope, 'bulkDuplicates', 'no duplicate was sent (read-only run, or bulk.duplicates failed)')
      detect(scope, 'bulkDuplicates', seen.value as 'skip' | 'reject', seen.source)
    },
  },
  {
    id: 'profile.timestamp-unit',
    description: 'the unit of the integer timestamps: seconds or milliseconds',
    async run(scope) {
      const { ctx } = scope
      const crawls = [await personaReference(ctx), ...(ctx.ids.policyId ? [await rulesReference(ctx)] : [])]
      const timestamps = crawls.flatMap((crawl) => timestampsOf(crawl.records))
      const unit = timestampUnitOf(timestamps)
      if (!unit) undetermined(scope, 'timestampUnit', timestamps.length ? 'the timestamps mix seconds and milliseconds' : 'no integer timestamp was read')
      detect(scope, 'timestampUnit', unit, `the magnitude of ${timestamps.length} timestamps of personas${ctx.ids.policyId ? ' and rules' : ''}`)
    },
  },
  {
    id: 'profile.pydantic',
    description: 'the pydantic version, from the UUID "invalid character" message: 2.12 or 2.13',
    async run(scope) {
      const seen = scope.ctx.facts.uuidErrorMessage
      const version = seen && pydanticOf(seen.message)
      if (!seen || !version) undetermined(scope, 'pydantic', seen ? `an unknown UUID message: ${seen.message}` : 'no UUID error message was seen (validation.uuid failed)')
      detect(scope, 'pydantic', version, `the message of ${seen.source}`)
    },
  },
  {
    id: 'profile.rules-paging',
    description: 'the names and default of the rules paging parameters',
    async run(scope) {
      const paging = await rulesPaging(scope.ctx)
      if (!paging.namesFound) undetermined(scope, 'rulesPaging', paging.namesSource)
      const value = { limit: paging.limit, offset: paging.offset, ...(paging.defaultLimit === undefined ? {} : { defaultLimit: paging.defaultLimit }) }
      if (paging.defaultLimit === undefined) scope.note('the default limit was not seen (no --policy-id, or the policy holds fewer rules than the default)')
      detect(scope, 'rulesPaging', value, [...new Set([paging.namesSource, paging.defaultSource].filter(Boolean))].join('; '))
    },
  },
  {
    id: 'profile.personas-order',
    description: 'the order of the personas (the mock: created_at descending, then id)',
    needs: ['team'],
    run: async (scope) => observeOrder(scope, 'personas', await personaReference(scope.ctx), PERSONA_ORDERINGS),
  },
  {
    id: 'profile.rules-order',
    description: 'the order of the rules (the mock: created_at ascending, then rule_id)',
    needs: ['policy'],
    run: async (scope) => observeOrder(scope, 'rules', await rulesReference(scope.ctx), RULE_ORDERINGS),
  },
  {
    id: 'profile.error-vocabulary',
    description: 'the detail texts of the refusals, next to the mock\'s',
    async run(scope) {
      const { ctx } = scope
      if (ctx.facts.errorTexts.size === 0) scope.skip('no refusal with a detail text was seen')
      const status = Number(ctx.profile.detected.missingCredentialsStatus?.value ?? 401)
      const mock = mockErrorTexts(status)
      for (const [situation, { detail }] of ctx.facts.errorTexts) {
        ctx.profile.observations[`error text: ${situation}`] = detail
        const expected = mock[situation]
        if (expected !== undefined && expected !== detail) scope.warn(`${situation}: the server says ${JSON.stringify(detail)}, the mock ${JSON.stringify(expected)}`)
      }
    },
  },
]

/** The bulk add's success status as the server's /openapi.json declares it, when a run adds nothing. */
async function documentedBulkStatus(scope: CheckScope): Promise<{ value: number; source: string } | undefined> {
  const { document } = await serverOpenApi(scope.ctx)
  const item = document?.paths?.['/v1/demographics/{dimension_id}/values/bulk'] as { post?: { responses?: Record<string, unknown> } } | undefined
  const status = ['201', '200'].find((code) => item?.post?.responses?.[code] !== undefined)
  return status ? { value: Number(status), source: 'the bulk add responses in GET /openapi.json' } : undefined
}
