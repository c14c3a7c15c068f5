import type { Check, CheckScope } from './check.js'
import type { Crawl } from '../client/crawl.js'
import { detectOrdering, PERSONA_ORDERINGS, RULE_ORDERINGS, type Ordering } from './ordering.js'
import { serverOpenApi } from '../drift/openapi-source.js'
import { timestampsOf, timestampsUnread, timestampUnitOf } from '../profile/detection.js'
import { personaReference, rulesReference } from './reference-sets.js'
import { rulesPaging } from '../profile/rules-paging.js'
import { detect, detectSeen, observe, undetermined } from './profile-support.js'
import { BULK_ADD_STATUSES } from '../../model/profile.js'
import { BULK_ADDED } from './expectations.js'

/** An order the mock has no setting for: observed, and a warning when it is not the mock's. */
function observeOrder(scope: CheckScope, what: string, crawl: Crawl, orderings: readonly Ordering[]): void {
  if (crawl.problem || crawl.records.length < 2) scope.skip(`too few ${what} were read to see an order`)
  const found = detectOrdering(crawl.records, orderings)
  const order = found?.name ?? 'none of the known orders'
  observe(scope, `${what} order`, order)
  if (found !== orderings[0])
    scope.warn(
      `${what} come in ${order}; the mock lists them by ${orderings[0]!.name} (no profile setting changes that)`,
    )
}

/** The profile settings and observations (they run after the checks whose answers they read). */
export const profileChecks: Check[] = [
  {
    id: 'profile.missing-credentials-status',
    kind: 'dialect',
    description: 'which status refuses a missing token: 401 (FastAPI ≥0.122) or 403 (≤0.121)',
    async run(scope) {
      const seen = scope.ctx.facts.missingCredentialsStatus
      detectSeen(scope, 'missingCredentialsStatus', seen, 'a request without a token was not refused with 401 or 403')
    },
  },
  {
    id: 'profile.bulk-add-status',
    kind: 'choice',
    description: `the success status of the bulk add: ${BULK_ADDED}`,
    async run(scope) {
      const seen = scope.ctx.facts.bulkAddStatus ?? (await documentedBulkStatus(scope))
      detectSeen(scope, 'bulkAddStatus', seen, 'no value was added (read-only run) and /openapi.json does not say')
    },
  },
  {
    id: 'profile.bulk-duplicates',
    kind: 'choice',
    description:
      'what a duplicate value does to a bulk add: skipped, the request rejected (a 4xx; the mock: 409), or stored again',
    async run(scope) {
      const seen = scope.ctx.facts.bulkDuplicates
      detectSeen(scope, 'bulkDuplicates', seen, 'no duplicate was sent (read-only run, or bulk.duplicates failed)')
    },
  },
  {
    id: 'profile.timestamp-unit',
    kind: 'choice',
    description: 'the unit of the integer timestamps: seconds or milliseconds',
    async run(scope) {
      const { ctx } = scope
      const crawls = [await personaReference(ctx), ...(ctx.ids.policyId ? [await rulesReference(ctx)] : [])]
      const timestamps = crawls.flatMap((crawl) => timestampsOf(crawl.records))
      const unit = timestampUnitOf(timestamps)
      if (!unit && timestamps.length)
        scope.warn(
          `${timestampsUnread(timestamps)}: the description leaves unit and epoch open; the mock sends Unix seconds or milliseconds (timestampUnit), and no setting takes another`,
        )
      if (!unit) undetermined(scope, 'timestampUnit', timestampsUnread(timestamps))
      detect(
        scope,
        'timestampUnit',
        unit,
        `the magnitude of ${timestamps.length} timestamps of personas${ctx.ids.policyId ? ' and rules' : ''}`,
      )
    },
  },
  {
    id: 'profile.rules-paging',
    kind: 'choice',
    description: 'the names and default of the rules paging parameters',
    async run(scope) {
      const paging = await rulesPaging(scope.ctx)
      if (!paging.namesFound) undetermined(scope, 'rulesPaging', paging.namesSource)
      const value = {
        limit: paging.limit,
        offset: paging.offset,
        ...(paging.defaultLimit === undefined ? {} : { defaultLimit: paging.defaultLimit }),
      }
      if (paging.pageIndex)
        scope.warn(
          `${paging.offset} is a page index, not an offset (${paging.pageIndexSource}): the description leaves it open ("the other is an integer with minimum 0"); the mock reads it as records skipped, and no profile setting makes it a page`,
        )
      if (paging.defaultLimit === undefined)
        scope.note('the default limit was not seen (no --policy-id, or the policy holds fewer rules than the default)')
      detect(
        scope,
        'rulesPaging',
        value,
        [...new Set([paging.namesSource, paging.defaultSource].filter(Boolean))].join('; '),
      )
    },
  },
  {
    id: 'profile.personas-order',
    kind: 'choice',
    description: 'the order of the personas (the mock: created_at descending, then id)',
    needs: ['team'],
    run: async (scope) => observeOrder(scope, 'personas', await personaReference(scope.ctx), PERSONA_ORDERINGS),
  },
  {
    id: 'profile.rules-order',
    kind: 'choice',
    description: 'the order of the rules (the mock: created_at ascending, then rule_id)',
    needs: ['policy'],
    run: async (scope) => observeOrder(scope, 'rules', await rulesReference(scope.ctx), RULE_ORDERINGS),
  },
]

/** The bulk add's success status as the server's /openapi.json declares it, when a run adds nothing. */
async function documentedBulkStatus(scope: CheckScope): Promise<{ value: number; source: string } | undefined> {
  const { document } = await serverOpenApi(scope.ctx)
  const item = document?.paths?.['/v1/demographics/{dimension_id}/values/bulk'] as
    | { post?: { responses?: Record<string, unknown> } }
    | undefined
  const status = BULK_ADD_STATUSES.find((code) => item?.post?.responses?.[String(code)] !== undefined)
  return status ? { value: status, source: 'the bulk add responses in GET /openapi.json' } : undefined
}
