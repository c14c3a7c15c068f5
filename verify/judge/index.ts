import { API_ROUTES, type ApiRoute } from '../../model/api/routes.js'
import { createRouter, type RouteResult } from '../../fastapi/http/router.js'
import { BULK_ADD_STATUSES, DEFAULT_PROFILE, type Profile } from '../../model/profile.js'
import { judgeBulkValues } from './bulk.js'
import { readParams } from './params.js'
import { judgePersonaPage, judgeRulePage } from './lists.js'
import type { JudgedProfile, JudgeInput, Violation } from './types.js'
import { resolvable, type ProfileFile } from '../profile/settings.js'
import { validateShape } from '../schema/validation.js'
import {
  DEMOGRAPHIC_VALUES,
  OPTIONAL_PERSONA_FIELDS,
  PERSONA_LIST,
  RULE_LIST,
  validationErrorBody,
} from '../schema/responses.js'
import { forgottenFields } from '../schema/forgotten-fields.js'

export type { JudgedExchange, Violation } from './types.js'

/** What the judge is told: the profile the server is expected to follow (a `--profile` file, or the mock's). */
export interface JudgeOptions {
  profile?: ProfileFile
}

const route = createRouter(API_ROUTES)
const SUCCESS_SHAPES = {
  list_personas: PERSONA_LIST,
  list_policy_rules: RULE_LIST,
  bulk_add_values: DEMOGRAPHIC_VALUES,
}
/**
 * A profile file is resolved once per object: a proxy judges every answer with the same one.
 * Keyed weakly, so a profile file no caller holds goes with its resolved profile.
 */
const resolvedProfileCache = new WeakMap<ProfileFile, Profile>()

/**
 * Judges one exchange the app really had with a server, without sending anything: whether the answer keeps
 * the contract the verifier holds servers to (`verify`), read by its meaning. Only what could break an app
 * is a violation: a pydantic dialect, a profile choice (the bulk add's 200 or 201) or an unknown extra
 * field is not.
 * @returns the violations found, `[]` when the answer keeps the contract (or is not the API's).
 * @example
 * judgeExchange({ method: 'GET', path: '/v1/personas/', query: `team_id=${team}`, status: 200, responseBody })
 * // [{ check: 'filters.team-scope', message: '1 of 10 results of another team than ... (…)' }]
 */
export function judgeExchange(exchange: JudgeInput, options: JudgeOptions = {}): Violation[] {
  // A preflight is answered by the CORS middleware in front of the API, not by the API.
  if (exchange.method.toUpperCase() === 'OPTIONS') return []
  const profile = profileOf(options.profile)
  const { status } = exchange
  const found = matchApiRoute(exchange.method, exchange.path)
  if (found.kind !== 'match') {
    // A 2xx for an API path or method that does not exist: the app relies on something the contract lacks.
    const isApi = exchange.path.startsWith('/v1/')
    return isApi && status >= 200 && status < 300
      ? [{ check: 'route', message: `${status} for ${exchange.method} ${exchange.path}, which the API does not have` }]
      : []
  }
  const { route: matched, params } = found
  // The rules paging names and what duplicates do are profile choices: judged only where a profile names them.
  const known = {
    ...profile,
    rulesPagingNamed: options.profile?.rulesPaging !== undefined,
    bulkDuplicatesNamed: options.profile?.bulkDuplicates !== undefined,
  }
  if (status >= 200 && status < 300) return judgeSuccess(exchange, matched, params, known)
  if (status === 422) return shapeViolations('schema.validation-error', exchange, validationErrorBody(body(exchange)))
  // Another refusal's status and body are the server's choice (the description leaves them open; verify warns of
  // one unlike the mock's), and a 5xx is a crash, whose body says nothing.
  return []
}

function judgeSuccess(
  exchange: JudgeInput,
  matched: ApiRoute,
  params: Record<string, string>,
  profile: JudgedProfile,
): Violation[] {
  // The bulk add's success status is a profile choice (`bulkAddStatus`): any of them keeps an app working.
  const allowed: readonly number[] =
    matched.name === 'bulk_add_values' ? BULK_ADD_STATUSES : [matched.response.status(profile)]
  const violations: Violation[] = allowed.includes(exchange.status)
    ? []
    : [{ check: 'status', message: `${exchange.status} where ${matched.name} answers ${allowed.join(' or ')}` }]
  const shape = [
    ...shapeViolations(`schema.${shapeId(matched)}`, exchange, SUCCESS_SHAPES[matched.name]),
    ...forgottenInPage(matched, exchange),
  ]
  // Meaning is only read from a body of the right shape, and for a request the server would take as it is.
  if (shape.length) return [...violations, ...shape]
  const request = readParams(matched, params, exchange, profile)
  if (!request) return violations
  const judge = { list_personas: judgePersonaPage, list_policy_rules: judgeRulePage, bulk_add_values: judgeBulkValues }
  return [...violations, ...judge[matched.name](request, body(exchange), profile)]
}

/** A persona page's optional fields the server left out of some records while writing null for others. */
function forgottenInPage(matched: ApiRoute, exchange: JudgeInput): Violation[] {
  const results = (body(exchange) as { results?: unknown } | undefined)?.results
  if (matched.name !== 'list_personas' || !Array.isArray(results)) return []
  const records = results.filter(
    (record): record is Record<string, unknown> => typeof record === 'object' && record !== null,
  )
  return forgottenFields(records, OPTIONAL_PERSONA_FIELDS).map((message) => ({ check: 'schema.persona-list', message }))
}

const shapeId = (matched: ApiRoute) =>
  ({ list_personas: 'persona-list', list_policy_rules: 'rule-list', bulk_add_values: 'bulk-values' })[matched.name]

function shapeViolations(check: string, exchange: JudgeInput, pair: Parameters<typeof validateShape>[0]): Violation[] {
  if (exchange.responseBody === undefined)
    return [{ check, message: `a ${pair.name} expected, got no JSON body (${exchange.contentType ?? 'no type'})` }]
  const { failures } = validateShape(pair, exchange.responseBody)
  return failures.length ? [{ check, message: `not a ${pair.name}: ${failures.join('; ')}` }] : []
}

const body = (exchange: JudgeInput) => exchange.responseBody

function profileOf(file: ProfileFile | undefined): Profile {
  if (!file) return DEFAULT_PROFILE
  let profile = resolvedProfileCache.get(file)
  if (!profile) resolvedProfileCache.set(file, (profile = resolvable(file)))
  return profile
}

/**
 * The API route a request names, as Starlette matches it: on the decoded path (a path that does
 * not decode, as it came). The proxy records by it too.
 */
export function matchApiRoute(method: string, path: string): RouteResult<ApiRoute> {
  return route(method.toUpperCase(), decodedPath(path))
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
