import { isRecord, type Json, sameId } from '../client/crawl.js'
import { intentIn, presetIs, searchMatches } from '../checks/filter-matching.js'
import type { JudgedProfile, ReadRequest, Violation } from './types.js'

/** How many records a message names before it says "…". */
const NAMED = 3

interface Page {
  results: Json[]
  total: number
}

/**
 * A page of personas against its query: the team asked for (or, without one, a single team: the token's), each
 * filter given, and paging. A record the page lacks cannot be seen from one answer: the verifier finds those.
 */
export function judgePersonaPage(request: ReadRequest, body: unknown): Violation[] {
  const page = body as Page
  const { team_id: teamId, intents, is_preset: isPreset, search } = request.params
  const teams = new Set(page.results.map((record) => String(record['team_id']).toLowerCase()))
  const violations = [
    ...strangers('filters.team-scope', page, `team_id ${String(teamId ?? 'of the token')}`, (record) =>
      teamId ? sameId(record['team_id'], teamId) : teams.size <= 1,
    ),
  ]
  if (Array.isArray(intents))
    violations.push(
      // A persona without an intent or is_preset has the default the description gives (exclude_unset).
      ...strangers('filters.intents', page, `intent in ${intents.join(', ')}`, intentIn(intents)),
    )
  if (typeof isPreset === 'boolean')
    violations.push(...strangers('filters.is-preset', page, `is_preset ${isPreset}`, presetIs(isPreset)))
  // `search=` (empty) is no filter at all.
  if (typeof search === 'string' && search !== '')
    violations.push(
      ...strangers('filters.search-fields', page, `"${search}" in name, description or role`, searchMatches(search)),
    )
  return [...violations, ...pagingViolations(page, Number(request.params['limit']), Number(request.params['offset']))]
}

/**
 * A page of rules: only the path's policy, and paging by the profile's parameter names and default. Where no
 * profile names them, a server may page by others (a profile choice, which verify reports): then only a total
 * below the page's own size is a violation.
 */
export function judgeRulePage(request: ReadRequest, body: unknown, profile: JudgedProfile): Violation[] {
  const page = body as Page
  const policyId = request.params['policy_id']
  const { limit, offset } = profile.rulesPaging
  const paging = profile.rulesPagingNamed
    ? pagingViolations(page, Number(request.params[limit]), Number(request.params[offset]))
    : pagingViolations(page, Number.POSITIVE_INFINITY, 0, false)
  return [
    ...strangers('rules.policy-scope', page, `policy_id ${String(policyId)}`, (record) =>
      sameId(record['policy_id'], policyId),
    ),
    ...paging,
  ]
}

/** Records of the page that `matches` refuses, as one violation. */
function strangers(check: string, page: Page, wanted: string, matches: (record: Json) => boolean): Violation[] {
  const found = page.results.filter((record) => !isRecord(record) || !matches(record))
  if (!found.length) return []
  const named = found.slice(0, NAMED).map((record) => String(record?.['id']))
  const more = found.length > NAMED ? ', …' : ''
  return [
    {
      check,
      message: `${found.length} of ${page.results.length} results without ${wanted} (${named.join(', ')}${more})`,
    },
  ]
}

/**
 * `total` counts every match before paging, so one page tells its own size: `min(limit, total - offset)`,
 * nothing past the end, never more than `limit`.
 */
function pagingViolations(page: Page, limit: number, offset: number, sized = true): Violation[] {
  const { total } = page
  const size = page.results.length
  if (size > limit) return [{ check: 'paging.limit-respected', message: `${size} results for limit ${limit}` }]
  if (size > 0 && total < offset + size)
    return [{ check: 'paging.total', message: `total ${total}, yet ${size} results at offset ${offset}` }]
  const expected = Math.max(0, Math.min(limit, total - offset))
  return size === expected || !sized
    ? []
    : [
        {
          check: 'paging.page-size',
          message: `${size} results at offset ${offset} where limit ${limit} and total ${total} make ${expected}`,
        },
      ]
}
