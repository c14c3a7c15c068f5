import type { OperationName } from '../api/routes.js'
import { bulkAddValues } from './demographics.js'
import type { Operation } from './operation.js'
import { listPersonas } from './personas.js'
import { listPolicyRules } from './policies.js'

/** The operation that answers each route of the API (api/routes.ts), by endpoint name. */
export const OPERATIONS: Readonly<Record<OperationName, Operation>> = {
  list_personas: listPersonas,
  bulk_add_values: bulkAddValues,
  list_policy_rules: listPolicyRules,
}

export { createControl, CONTROL_PREFIX } from './control.js'
