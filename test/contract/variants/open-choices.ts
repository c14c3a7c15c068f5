import { HttpResponse, type RequestHandler } from 'msw'
import { BULK, forward, override, PERSONAS, realAnswer, rewrite, setParams, type Json } from '../support/variant.js'
import { bodyOf } from './helpers.js'

/**
 * Variants of the mock after real FastAPI servers that choose freely where the description says "not shown": the
 * refusal of a duplicate value, and the fields `response_model_exclude_unset` leaves out. Correct ones, and the
 * broken ones the same choices must not hide. The duplicate variants run in front of a mock whose profile is
 * `bulkDuplicates: 'reject'`: it refuses a request holding a value already stored, or one repeated, with 409 and
 * adds nothing; each variant only answers that refusal its own way.
 */

/** The values the mock's 409 names: `Duplicate values: a, b` (its default text). */
const namedDuplicates = (detail: unknown): string[] =>
  typeof detail === 'string' ? detail.replace(/^[^:]*:\s*/, '').split(', ') : []

/** Answers the mock's 409 to a duplicate with `refuse` instead (2xx and other answers go through). */
const refusingDuplicates = (refuse: (duplicates: string[], sent: Json[]) => Response): RequestHandler =>
  rewrite(
    'post',
    BULK,
    async (body, request, status) => {
      if (status !== 409) return body
      const sent = (await bodyOf(request))?.values
      return refuse(namedDuplicates(body?.detail), Array.isArray(sent) ? sent : [])
    },
    { all: true },
  )

/** Correct: a duplicate refuses the request with 400 and the first duplicate named (`HTTPException(400, ...)`). */
export const duplicatesRefusedWith400 = (): RequestHandler[] => [
  refusingDuplicates((duplicates) =>
    HttpResponse.json({ detail: `Value already exists: ${duplicates[0]}` }, { status: 400 }),
  ),
]

/** Correct: a duplicate refuses the request with a 422 validation body, one entry at each duplicate item's value. */
export const duplicatesRefusedWith422 = (): RequestHandler[] => [
  refusingDuplicates((duplicates, sent) => {
    const detail = sent.flatMap((item: Json, index) =>
      duplicates.includes(item?.value)
        ? [{ loc: ['body', 'values', index, 'value'], msg: 'value already exists', type: 'value_error.duplicate' }]
        : [],
    )
    return HttpResponse.json({ detail }, { status: 422 })
  }),
]

/**
 * Broken: a duplicate is refused with `status`, but the request's new values are stored all the same (the
 * refusal raised after the writes). Each distinct value is added alone first: the mock stores the new ones.
 */
export const freshStoredDespiteRefusal = (status: 400 | 409): RequestHandler[] => [
  override('post', BULK, async (request) => {
    const first = await forward(request)
    if (first.status !== 409) return first
    const { detail } = (await first.json()) as Json
    const sent: Json[] = (await bodyOf(request))?.values ?? []
    const distinct = [...new Map(sent.map((item) => [item?.value, item])).values()]
    for (const item of distinct) await forward(request, { body: JSON.stringify({ values: [item] }) })
    const duplicates = namedDuplicates(detail)
    const refusal = status === 409 ? detail : `Value already exists: ${duplicates[0]}`
    return HttpResponse.json({ detail: refusal }, { status })
  }),
]

/** The defaults the description's Persona table gives; `response_model_exclude_unset` leaves a field holding one out. */
const DESCRIBED_DEFAULTS: Record<string, unknown> = {
  knowledge_level: 'intermediate',
  skill_level: 'competent',
  intent: 'benign',
  language: 'en',
  is_preset: false,
}

/** A persona as `response_model_exclude_unset=True` writes it: no field left unset, `None` or a default. */
const withoutUnset = (persona: Json): Json =>
  Object.fromEntries(
    Object.entries(persona).filter(([name, value]) => value !== null && DESCRIBED_DEFAULTS[name] !== value),
  )

/** Correct: the personas list answers through `response_model_exclude_unset=True`. */
export const excludeUnset = (): RequestHandler[] => [
  rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map(withoutUnset) })),
]

/**
 * Broken, under `response_model_exclude_unset`: `intents=benign` also lists a persona of another intent, which the
 * record says (the benign ones leave intent out).
 */
export const otherIntentListedAsBenign = (): RequestHandler[] => [
  override('get', PERSONAS, async (request) => {
    const params = new URL(request.url).searchParams
    const firstPage = (params.get('offset') ?? '0') === '0'
    const benignOnly = params.getAll('intents').join() === 'benign' && !params.has('search') && !params.has('is_preset')
    if (!firstPage || !benignOnly) return undefined
    const benign = await realAnswer(request)
    const curious = await realAnswer(request, { url: (url) => setParams(url, { intents: 'curious' }) })
    if (benign.status !== 200 || curious.status !== 200) return forward(request)
    const results = [...benign.body.results, ...curious.body.results.slice(0, 1)].map(withoutUnset)
    return HttpResponse.json({ results, total: benign.body.total + 1 })
  }),
  ...excludeUnset(),
]
