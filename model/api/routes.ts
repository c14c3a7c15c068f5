import type { z } from 'zod'
import { OPERATION_NAMES, type OperationName, type Profile } from '../profile.js'
import { BulkAddPath, bulkAddValues, listPersonasQuery, listRulesQuery, ListRulesPath } from '../requests.js'
import { DemographicValue, PersonaListResponse, PolicyRuleListResponse } from '../schemas.js'

type ObjectSchema = z.ZodObject<z.ZodRawShape>

/** The endpoint names live in model/ (the profile names them too); api/ is where the rest of the mock finds them. */
export { OPERATION_NAMES, type OperationName }

/**
 * A route of the API as data, with what FastAPI knows of its endpoint (and puts in
 * /openapi.json): the handlers, the OpenAPI document and the verifier all read it.
 */
export interface ApiRoute {
  readonly name: OperationName
  /** Matched by fastapi/http/router.ts, like any route. */
  readonly method: string
  readonly path: string
  readonly tags: readonly string[]
  /** Path and query parameters in signature order, and the body model (the profile may change them). */
  readonly request: {
    path?: ObjectSchema
    query?: (profile: Profile) => ObjectSchema
    body?: (profile: Profile) => ObjectSchema
  }
  /** The response model and the success status (which may depend on the profile). */
  readonly response: { schema: z.ZodType; status: (profile: Profile) => number }
}

/**
 * The routes of the imagined FastAPI application, in declaration order (which decides the
 * `allow` of a 405). `name` is the endpoint function's name, from which FastAPI derives the
 * operationId and summary.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    name: 'list_personas',
    method: 'GET',
    path: '/v1/personas/',
    tags: ['Agent Environment', 'personas'],
    request: { query: listPersonasQuery },
    response: { schema: PersonaListResponse, status: () => 200 },
  },
  {
    name: 'bulk_add_values',
    method: 'POST',
    path: '/v1/demographics/{dimension_id}/values/bulk',
    tags: ['demographics'],
    request: { path: BulkAddPath, body: bulkAddValues },
    response: { schema: DemographicValue.array(), status: (profile) => profile.bulkAddStatus },
  },
  {
    name: 'list_policy_rules',
    method: 'GET',
    path: '/v1/policies/{policy_id}/rules',
    tags: ['Agent Environment', 'policies'],
    request: { path: ListRulesPath, query: listRulesQuery },
    response: { schema: PolicyRuleListResponse, status: () => 200 },
  },
]
