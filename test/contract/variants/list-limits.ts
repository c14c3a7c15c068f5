import { HttpResponse, type RequestHandler } from 'msw'
import type { ProfileOptions } from '../../../model/profile.js'
import type { Bounds } from '../../../verify/profile/settings.js'
import { noDocument } from './choices.js'
import { override, PERSONAS } from '../support/variant.js'

/** The personas list refusing an offset past `most` (an `le` on the offset), as pydantic 2 words it. */
const offsetAtMost = (most: number): RequestHandler =>
  override('get', PERSONAS, (request) => {
    const offset = new URL(request.url).searchParams.get('offset')
    if (offset === null || Number(offset) <= most) return undefined
    const entry = {
      type: 'less_than_equal',
      loc: ['query', 'offset'],
      msg: `Input should be less than or equal to ${most}`,
    }
    return HttpResponse.json({ detail: [{ ...entry, input: offset, ctx: { le: most } }] }, { status: 422 })
  })

/**
 * Servers whose list `limit` keeps another maximum than the description's (personas 1 to 100, rules 1 to 1000),
 * each the mock started with that bound in its profile: it validates (`le=50`) and documents the bound as FastAPI
 * does. Each breaks the description's range, and that is the one finding: the check holding the server to the
 * range fails (and drift.parameters, when the document declares a tighter maximum); schema, paging and filter
 * checks page with what the server takes, and pass.
 */
export interface LimitVariant {
  server: string
  profile: ProfileOptions
  handlers?: () => RequestHandler[]
  /** Exactly the checks that fail. */
  fails: string[]
  /** What the profile verify writes holds of the bounds. */
  bounds: Partial<Bounds>
}

export const LIST_LIMIT_VARIANTS: LimitVariant[] = [
  {
    server: 'personas limit le=50, declared in /openapi.json',
    profile: { bounds: { personasLimitMax: 50 } },
    fails: ['validation.limit-range', 'drift.parameters'],
    bounds: { personasLimitMax: 50 },
  },
  {
    server: 'personas limit le=50 on FastAPI 0.92 + pydantic 1, without /openapi.json',
    profile: { pydantic: '1', missingCredentialsStatus: 403, bounds: { personasLimitMax: 50 } },
    handlers: noDocument,
    fails: ['validation.limit-range'],
    bounds: { personasLimitMax: 50 },
  },
  {
    server: 'personas limit le=150',
    profile: { bounds: { personasLimitMax: 150 } },
    fails: ['validation.limit-range'],
    bounds: { personasLimitMax: 150 },
  },
  {
    server: 'personas limit le=5 and rules limit le=5: below the small pages too',
    profile: { bounds: { personasLimitMax: 5, rulesLimitMax: 5 } },
    fails: ['validation.limit-range', 'paging.rules-bounds', 'drift.parameters'],
    bounds: { personasLimitMax: 5, rulesLimitMax: 5 },
  },
  {
    server: 'personas limit le=3: below the small pages of 5',
    profile: { bounds: { personasLimitMax: 3 } },
    fails: ['validation.limit-range', 'drift.parameters'],
    bounds: { personasLimitMax: 3 },
  },
  {
    server: 'personas limit le=30 and offset le=10000, without /openapi.json: probes far past the end are refused',
    profile: { bounds: { personasLimitMax: 30 } },
    handlers: () => [...noDocument(), offsetAtMost(10_000)],
    fails: ['validation.limit-range'],
    bounds: { personasLimitMax: 30 },
  },
  {
    server: 'rules limit without a maximum',
    profile: { bounds: { rulesLimitMax: null } },
    fails: ['paging.rules-bounds'],
    bounds: { rulesLimitMax: null },
  },
  {
    server: 'rules limit le=20, declared in /openapi.json',
    profile: { bounds: { rulesLimitMax: 20 } },
    fails: ['paging.rules-bounds', 'drift.parameters'],
    bounds: { rulesLimitMax: 20 },
  },
  {
    server: 'rules paged by page_size/skip with le=20, without /openapi.json',
    profile: { rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 10 }, bounds: { rulesLimitMax: 20 } },
    handlers: noDocument,
    fails: ['paging.rules-bounds'],
    bounds: { rulesLimitMax: 20 },
  },
]
