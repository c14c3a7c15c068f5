import { bulkAddValues } from './demographics.js'
import type { Operations } from '../../core/api.js'
import { listPersonas } from './personas.js'
import { listPolicyRules } from './policies.js'

/** The operation that answers each route of the API (model/api/routes.ts), by endpoint name. */
export const OPERATIONS: Operations = {
  list_personas: listPersonas,
  bulk_add_values: bulkAddValues,
  list_policy_rules: listPolicyRules,
}
