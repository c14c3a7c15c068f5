import { bulkAddValues } from './demographics.js'
import type { Route } from './fastapi/router.js'
import type { Operation } from './operation.js'
import { listPersonas } from './personas.js'
import { listPolicyRules } from './policies.js'

export interface ApiRoute extends Route {
  readonly operation: Operation
  readonly tags: readonly string[]
}

/**
 * The routes of the imagined FastAPI application, in declaration order (which decides the
 * `allow` of a 405). `name` is the endpoint function's name, from which FastAPI derives the
 * operationId and summary.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  { name: 'list_personas', method: 'GET', path: '/v1/personas/', operation: listPersonas, tags: ['Agent Environment', 'personas'] },
  { name: 'bulk_add_values', method: 'POST', path: '/v1/demographics/{dimension_id}/values/bulk', operation: bulkAddValues, tags: ['demographics'] },
  { name: 'list_policy_rules', method: 'GET', path: '/v1/policies/{policy_id}/rules', operation: listPolicyRules, tags: ['Agent Environment', 'policies'] },
]
