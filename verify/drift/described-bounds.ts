import { API_ROUTES, type OperationName } from '../../model/api/routes.js'
import type { OpenApiDocument } from './openapi-source.js'

/**
 * The bounds of what a client sends, as the description (agent-console-api.md) gives them, and those a
 * profile setting expresses. A server bound that refuses a value inside a described bound breaks the
 * contract; any other bound tighter than the mock's is the server's choice where the description is silent
 * (constraints.ts), however many fields a server bounds: the list holds what the description says, not
 * exemptions.
 */

export type BoundKeyword = 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems'

export interface DescribedBound {
  /** The place as drift findings name it: `GET /v1/personas/: query parameter limit`. */
  at: string
  /** The edge the description gives; a server's `exclusiveMinimum`/`exclusiveMaximum` is read against it too. */
  bound: BoundKeyword
  /** Every value up to this edge (from it, for a lower bound) is one the description says a server takes. */
  value: number
}

export interface ProfileBound {
  at: string
  bound: BoundKeyword
  /** The profile setting that aligns the mock with the server's bound. */
  setting: string
}

/** An operation as drift findings name it: `GET /v1/personas/`. */
export const operationPlace = (method: string, path: string) => `${method.toUpperCase()} ${path}`
/** A parameter as drift findings name it (a path parameter under the mock's name). */
export const parameterPlace = (operation: string, location: string, name: string) =>
  `${operation}: ${location} parameter ${name}`
/** A field of a request body as drift findings name it: `fields` as `.values[].value`. */
export const bodyPlace = (operation: string, fields = '') => `${operation} body${fields}`

function routePlace(name: OperationName): string {
  const route = API_ROUTES.find((item) => item.name === name)!
  return operationPlace(route.method, route.path)
}

const PERSONAS = routePlace('list_personas')
const BULK = routePlace('bulk_add_values')
const RULES = routePlace('list_policy_rules')

/** "All identifiers are strings in UUID format": a length bound refusing 36 characters refuses every id. */
const uuidLength = (at: string): DescribedBound[] => [
  { at, bound: 'minLength', value: 36 },
  { at, bound: 'maxLength', value: 36 },
]

/**
 * The names of the rules paging parameters in the mock's document (built for the detected profile): the
 * description names neither ("Their names and defaults: not shown"), only their ranges, and the mock declares
 * them as model/requests.ts orders them, the 1..1000 one first, then the one with minimum 0.
 */
function rulesPagingNames(mock: OpenApiDocument): [string, string] {
  const path = API_ROUTES.find((item) => item.name === 'list_policy_rules')!.path
  const operation = (mock.paths?.[path] as { get?: { parameters?: Array<Record<string, unknown>> } } | undefined)?.get
  const names = (operation?.parameters ?? [])
    .filter((item) => item['in'] === 'query')
    .map((item) => String(item['name']))
  return [names[0] ?? 'limit', names[1] ?? 'offset']
}

/** Every bound the description gives to a parameter or field a client sends; nothing else is one. */
export function describedBounds(mock: OpenApiDocument): DescribedBound[] {
  const [rulesLimit, rulesOffset] = rulesPagingNames(mock)
  return [
    // "limit | integer | no | 10 | minimum 1, maximum 100"; "offset | integer | no | 0 | minimum 0".
    { at: parameterPlace(PERSONAS, 'query', 'limit'), bound: 'minimum', value: 1 },
    { at: parameterPlace(PERSONAS, 'query', 'limit'), bound: 'maximum', value: 100 },
    { at: parameterPlace(PERSONAS, 'query', 'offset'), bound: 'minimum', value: 0 },
    // "One is an integer with range 1 to 1000 inclusive. The other is an integer with minimum 0."
    { at: parameterPlace(RULES, 'query', rulesLimit), bound: 'minimum', value: 1 },
    { at: parameterPlace(RULES, 'query', rulesLimit), bound: 'maximum', value: 1000 },
    { at: parameterPlace(RULES, 'query', rulesOffset), bound: 'minimum', value: 0 },
    // team_id, dimension_id and policy_id: "string (uuid)".
    ...uuidLength(parameterPlace(PERSONAS, 'query', 'team_id')),
    ...uuidLength(parameterPlace(BULK, 'path', 'dimension_id')),
    ...uuidLength(parameterPlace(RULES, 'path', 'policy_id')),
  ]
}

/** Bounds the description leaves open ("Maximum number of items in one bulk add request: not shown") that the profile sets. */
export const PROFILE_BOUNDS: readonly ProfileBound[] = [
  { at: bodyPlace(BULK, '.values'), bound: 'maxItems', setting: 'bounds.bulkMaxItems' },
  { at: bodyPlace(BULK, '.values[].value'), bound: 'maxLength', setting: 'bounds.valueMaxLength' },
]
