import { HttpResponse, http, type RequestHandler } from 'msw'
import type { Fixtures } from '../../../factories/fixtures.js'
import {
  BULK,
  forward,
  OPENAPI,
  override,
  PERSONAS,
  realAnswer,
  rewrite,
  RULES,
  setParams,
  type Json,
} from '../support/variant.js'
import { bearer, bodyOf, isFiltered } from './helpers.js'

/**
 * Variants of the mock after real FastAPI servers a hunter ran verify against: correct ones that once failed
 * (each a choice the description leaves open), and broken ones that once passed.
 */

/** Every object of a JSON document, depth first. */
function* objects(value: Json): Generator<Json> {
  if (value === null || typeof value !== 'object') return
  yield value
  for (const child of Object.values(value)) yield* objects(child)
}

/** A copy of a record without its null fields, nested objects too (`response_model_exclude_none=True`). */
function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([name, field]) => [name, withoutNulls(field)]),
  )
}

/** Correct: `response_model_exclude_none=True`: fields without a value are left out of the lists. */
export const excludeNone = (): RequestHandler[] => [
  rewrite('get', PERSONAS, (body) => withoutNulls(body)),
  rewrite('get', RULES, (body) => withoutNulls(body)),
]

/** Broken: a persona field the description marks required (`role`) left out. */
export const personaRoleMissing = (): RequestHandler[] => [
  rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map(({ role, ...rest }: Json) => rest) })),
]

/** Correct: the bulk add answers its records newest first (the description gives no order). */
export const bulkAnswerReversed = (): RequestHandler[] => [rewrite('post', BULK, (body) => [...body].reverse())]

/** Correct: rules paged by `page_size` and `page`, a page index (the mock's profile names them; offset = page × size). */
export const PAGE_INDEX_PAGING = { rulesPaging: { limit: 'page_size', offset: 'page', defaultLimit: 100 } }
export const rulesPageIndex = (): RequestHandler[] => [
  override('get', RULES, (request) => {
    const params = new URL(request.url).searchParams
    const [size, page] = [params.get('page_size'), params.get('page')]
    if (page === null || !/^\d+$/.test(page) || (size !== null && !/^\d+$/.test(size))) return undefined
    const offset = String(Number(page) * Number(size ?? 100))
    return forward(request, { url: (url) => setParams(url, { page: offset }) })
  }),
]

/** Correct: a constraint of the server's own model (`right_operand` a list, number or string). */
export const constraintUnion = (): RequestHandler[] => [
  rewrite('get', OPENAPI, (document) => {
    for (const node of objects(document))
      if (node['properties']?.['right_operand'])
        node['properties']['right_operand'] = {
          anyOf: [{ type: 'array', items: {} }, { type: 'number' }, { type: 'string' }],
        }
    return document
  }),
]

/** Correct: `values` needs at least one item (`min_length=1`), declared and enforced. */
export const valuesNonEmpty = (): RequestHandler[] => [
  rewrite('get', OPENAPI, (document) => {
    for (const node of objects(document))
      if (node['properties']?.['values']?.['type'] === 'array') node['properties']['values']['minItems'] = 1
    return document
  }),
  override('post', BULK, async (request) => {
    const body = await bodyOf(request)
    if (!Array.isArray(body?.values) || body.values.length > 0) return undefined
    const response = await forward(request)
    if (!response.ok) return response
    const detail = [{ type: 'too_short', loc: ['body', 'values'], msg: 'List should have at least 1 item', input: [] }]
    return HttpResponse.json({ detail }, { status: 422 })
  }),
]

/** The operations, each answering a request whose Authorization is changed by `change` first. */
const withAuthorization = (change: (header: string) => string | undefined): RequestHandler[] =>
  (['get', 'get', 'post'] as const).map((method, index) =>
    override(method, [PERSONAS, RULES, BULK][index]!, (request) => {
      const header = request.headers.get('authorization')
      const changed = header === null ? undefined : change(header)
      if (changed === undefined) return undefined
      return forward(request, { headers: (headers) => headers.set('authorization', changed) })
    }),
  )

/** Correct: the JWT is read whatever the scheme word before it (how it is sent is "not shown"). */
export const anyScheme = (): RequestHandler[] =>
  withAuthorization((header) => header.replace(/^(?!Bearer )\S+ /, 'Bearer '))

/** Broken: any Basic credential is let in as the team reader. */
export const basicLetsAnyoneIn = (fixtures: Fixtures): RequestHandler[] =>
  withAuthorization((header) => (header.startsWith('Basic ') ? bearer(fixtures.tokens.team_reader) : undefined))

/** Correct: a super admin reads only the policies of its own team (here: none). */
export const adminScopedToItsTeam = (fixtures: Fixtures): RequestHandler[] => [
  override('get', RULES, (request) => {
    const policyId = new URL(request.url).pathname.split('/')[3]
    const policy = fixtures.policies.find((item) => item.id === policyId)
    const admin = request.headers.get('authorization') === bearer(fixtures.tokens.super_admin)
    if (!admin || !policy) return undefined
    return HttpResponse.json({ detail: 'Policy not found' }, { status: 404 })
  }),
]

/** Broken: the team's personas are paged first and filtered after (the total stays right). */
export const filterAfterPaging = (): RequestHandler[] => [
  override('get', PERSONAS, async (request) => {
    if (!isFiltered(request)) return undefined
    const unfiltered = await realAnswer(request, {
      url: (url) => setParams(url, { intents: null, is_preset: null, search: null }),
    })
    const matching = await realAnswer(request, { url: (url) => setParams(url, { limit: '100', offset: '0' }) })
    if (unfiltered.status !== 200 || matching.status !== 200) return forward(request)
    const ids = new Set(matching.body.results.map((record: Json) => record.id))
    const results = unfiltered.body.results.filter((record: Json) => ids.has(record.id))
    return HttpResponse.json({ results, total: matching.body.total })
  }),
]

/** Broken: with is_preset=true the team is not checked: any team's presets are listed (here: as a super admin). */
export const presetsOfAnyTeam = (fixtures: Fixtures): RequestHandler[] =>
  asAdminWhen(fixtures, (url) => url.searchParams.get('is_preset') === 'true')

/** Broken: team_id is checked for existence only: a team of someone else is listed (here: as a super admin). */
export const teamExistsOnly = (fixtures: Fixtures): RequestHandler[] =>
  asAdminWhen(fixtures, (url) => fixtures.teams.some((team) => team.id === url.searchParams.get('team_id')))

function asAdminWhen(fixtures: Fixtures, when: (url: URL) => boolean): RequestHandler[] {
  return [
    override('get', PERSONAS, (request) => {
      const reader = request.headers.get('authorization') === bearer(fixtures.tokens.team_reader)
      if (!reader || !when(new URL(request.url))) return undefined
      return forward(request, {
        headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)),
      })
    }),
  ]
}

/**
 * Correct: a value already stored is refused with 409 (the mock's profile: `reject`), but a value repeated within
 * one request is stored once: the request reaches the mock with its repeats left out.
 */
export const repeatsInOneRequestSkipped = (): RequestHandler[] => [
  override('post', BULK, async (request) => {
    const body = await bodyOf(request)
    if (!Array.isArray(body?.values)) return undefined
    const seen = new Set<unknown>()
    const values = body.values.filter((item: Json) => !seen.has(item?.value) && seen.add(item?.value))
    if (values.length === body.values.length) return undefined
    return forward(request, { body: JSON.stringify({ ...body, values }) })
  }),
]

/** Every UUID of a body in upper case: each record's own id and the ids it points to. */
function withUpperCaseIds(value: Json): Json {
  if (typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value))
    return value.toUpperCase()
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(withUpperCaseIds)
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, withUpperCaseIds(field)]))
}

/** Correct: ids written in upper case (RFC 4122 reads hex digits in either case), as some databases write them. */
export const upperCaseIds = (): RequestHandler[] => [
  rewrite('get', PERSONAS, withUpperCaseIds),
  rewrite('get', RULES, withUpperCaseIds),
  rewrite('post', BULK, withUpperCaseIds),
]

/** Correct: a super admin's list without team_id holds every team's personas, team after team. */
export const adminListsEveryTeam = (fixtures: Fixtures): RequestHandler[] => [
  override('get', PERSONAS, async (request) => {
    const url = new URL(request.url)
    const admin = request.headers.get('authorization') === bearer(fixtures.tokens.super_admin)
    if (!admin || url.searchParams.has('team_id')) return undefined
    const everyone: Json[] = []
    for (const team of fixtures.teams)
      for (let offset = 0; ; offset += 100) {
        const { body } = await realAnswer(request, {
          url: (sent) => setParams(sent, { team_id: team.id, limit: '100', offset: String(offset) }),
        })
        everyone.push(...body.results)
        if (body.results.length < 100) break
      }
    const [limit, offset] = [Number(url.searchParams.get('limit') ?? 50), Number(url.searchParams.get('offset') ?? 0)]
    return HttpResponse.json({ results: everyone.slice(offset, offset + limit), total: everyone.length })
  }),
]

/** How a server that looks the dimension up before it reads the body answers a dimension it does not know. */
const UNKNOWN_DIMENSION = {
  404: { status: 404, body: { detail: 'Dimension not found' } },
  403: { status: 403, body: { detail: 'Not allowed for this dimension' } },
  422: {
    status: 422,
    body: { detail: [{ loc: ['path', 'dimension_id'], msg: 'dimension not found', type: 'value_error' }] },
  },
} as const

/**
 * Correct: the dimension is looked up in a dependency (`Depends(get_dimension_or_404)`), before the body is read: a
 * dimension it does not know gets its refusal whatever the body. A malformed id still gets FastAPI's 422.
 */
export const dimensionLookedUpFirst = (
  fixtures: Fixtures,
  refusal: keyof typeof UNKNOWN_DIMENSION,
): RequestHandler[] => [
  override('post', BULK, (request) => {
    const id = new URL(request.url).pathname.split('/')[3] ?? ''
    const known = fixtures.dimensions.some((dimension) => dimension.id === id.toLowerCase())
    if (known || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined
    const { status, body } = UNKNOWN_DIMENSION[refusal]
    return HttpResponse.json(body, { status })
  }),
]

/** Broken: `dimension_id` typed `str`: a malformed id is looked up as it is, and not found. */
export const dimensionIdNotChecked = (): RequestHandler[] => [
  override('post', BULK, (request) =>
    new URL(request.url).pathname.split('/')[3] === 'not-a-uuid'
      ? HttpResponse.json({ detail: 'Dimension not found' }, { status: 404 })
      : undefined,
  ),
]

/** Sends a rules request on as the super admin when `when` says so. */
const asAdminWhenAsked = (fixtures: Fixtures, when: (request: Request) => boolean): RequestHandler[] => [
  override('get', RULES, (request) =>
    when(request)
      ? forward(request, { headers: (headers) => headers.set('authorization', bearer(fixtures.tokens.super_admin)) })
      : undefined,
  ),
]

/** Correct: the rules of any team's policy are readable (the description scopes personas to teams, not policies). */
export const rulesOfAnyTeam = (fixtures: Fixtures): RequestHandler[] =>
  asAdminWhenAsked(fixtures, (request) =>
    fixtures.policies.some(
      (policy) => policy.team_id !== fixtures.teams[0]!.id && new URL(request.url).pathname.includes(policy.id),
    ),
  )

/** Correct: the rules need no permission (the description names none for them). */
export const rulesWithoutPermission = (fixtures: Fixtures): RequestHandler[] =>
  asAdminWhenAsked(
    fixtures,
    (request) => request.headers.get('authorization') === bearer(fixtures.tokens.no_permissions),
  )

/** Correct: a rate limit ("Rate limits: not shown") refuses every other API request with 429 and `Retry-After: 0`. */
export const rateLimited = (): RequestHandler[] => {
  let requests = 0
  const limit = () =>
    requests++ % 2 === 0
      ? HttpResponse.json({ detail: 'Too Many Requests' }, { status: 429, headers: { 'retry-after': '0' } })
      : undefined
  return [http.all('*/v1/*', limit)]
}

/** Correct: a missing permission refused with 401 (the statuses are "not shown"), a bad token's refusal unlike it. */
export const permissionRefusedWith401 = (fixtures: Fixtures): RequestHandler[] =>
  (['get'] as const).flatMap((method) =>
    [PERSONAS, RULES].map((path) =>
      override(method, path, (request) =>
        request.headers.get('authorization') === bearer(fixtures.tokens.no_permissions)
          ? HttpResponse.json({ detail: 'Missing permission' }, { status: 401 })
          : undefined,
      ),
    ),
  )

/** Broken: team_id compared with the token's as text, so the same UUID in upper case is refused. */
export const teamIdComparedAsText = (): RequestHandler[] => [
  override('get', PERSONAS, (request) => {
    const teamId = new URL(request.url).searchParams.get('team_id')
    return teamId && teamId !== teamId.toLowerCase()
      ? HttpResponse.json({ detail: 'Not authorized for this team' }, { status: 403 })
      : undefined
  }),
]
