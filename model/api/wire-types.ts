import type { z } from 'zod'
import type * as enums from '../enums.js'
import type * as requests from '../requests.js'
import type * as schemas from '../schemas.js'

/**
 * The API's bodies as a frontend receives and sends them: what `await response.json()` gives, and what it
 * posts. Each type is read off the zod schema that shapes the mock's answers (or validates its requests), so
 * they cannot drift apart, with two changes for JSON:
 * - `bigint` is `number`: the mock keeps Python's big integers internally (`sort_order` past 2^53), but JSON
 *   has one number type, and `JSON.parse` gives a `number`;
 * - a free-form object whose schema says only `object` (`value_metadata`) is `{ [key: string]: unknown }`.
 *
 * Types only: importing them adds nothing to a bundle, and the app needs no zod of its own.
 * @example
 * import type { PersonaListResponse } from 'agent-console-mock'
 * const page: PersonaListResponse = await (await fetch('/v1/personas/?limit=5')).json()
 */
export type OnTheWire<T> = T extends bigint
  ? number
  : T extends readonly (infer Item)[]
    ? OnTheWire<Item>[]
    : T extends object
      ? [keyof T] extends [never]
        ? { [key: string]: unknown }
        : { [K in keyof T]: OnTheWire<T[K]> }
      : T

type Answer<Schema extends z.ZodType> = OnTheWire<z.output<Schema>>
/** `T` with the keys `K` optional, as one flat object type (an editor shows its fields, not an intersection). */
type PartlyOptional<T, K extends keyof T> = { [P in Exclude<keyof T, K>]: T[P] } & { [P in K]?: T[P] } extends infer U
  ? { [P in keyof U]: U[P] }
  : never
type Sent<Schema extends z.ZodType> = OnTheWire<z.input<Schema>>

/** A persona of `GET /v1/personas/`. */
export type Persona = Answer<typeof schemas.Persona>
/** A persona's `access_permissions` when it has the documented shape (it may be any JSON object, or `null`). */
export type PersonaAccessPermissions = Answer<typeof schemas.PersonaAccessPermissions>
/** The answer of `GET /v1/personas/`: one page of personas and the number of all that match. */
export type PersonaListResponse = Answer<typeof schemas.PersonaListResponse>

/** A demographic value, as the bulk add answers it. `sort_order` is a `number`. */
export type DemographicValue = Answer<typeof schemas.DemographicValue>
/** One item of a bulk add's `values`: only `value` is required. */
export type DemographicValueCreate = Sent<typeof requests.DemographicValueCreate>
/** The body of `POST /v1/demographics/{dimension_id}/values/bulk`. */
export type BulkAddValues = Sent<typeof requests.BulkAddValues>
/** The answer of the bulk add (201 by default): the values stored, duplicates of stored values left out. */
export type BulkAddValuesResponse = DemographicValue[]

/** A rule of `GET /v1/policies/{policy_id}/rules`. */
export type PolicyRule = Answer<typeof schemas.PolicyRule>
export type Consequence = Answer<typeof schemas.Consequence>
export type Constraint = Answer<typeof schemas.Constraint>
export type Provenance = Answer<typeof schemas.Provenance>
export type SourceLocation = Answer<typeof schemas.SourceLocation>
/** The answer of `GET /v1/policies/{policy_id}/rules`: one page of rules and the number of all of them. */
export type PolicyRuleListResponse = Answer<typeof schemas.PolicyRuleListResponse>

/** The query of `GET /v1/personas/` (the default profile's: `intents` are any strings). */
export type ListPersonasParams = Sent<typeof requests.ListPersonasQuery>
/**
 * The query of `GET /v1/policies/{policy_id}/rules` under the default profile (a profile may rename the
 * paging parameters and change the default limit of 100).
 */
export interface ListPolicyRulesParams {
  limit?: number
  offset?: number
}

/**
 * One entry of a 422's `detail`: what FastAPI declares (`loc`, `msg`, `type`), and pydantic 2's `input` and `ctx`,
 * optional. pydantic 1 servers send no `input`, and an app builds an entry from the declared fields alone.
 */
export type ValidationError = PartlyOptional<Answer<typeof schemas.ValidationError>, 'input' | 'ctx'>
/** The body of every 422: request validation failed. */
export interface HTTPValidationError {
  detail: ValidationError[]
}
/** The body of every other refusal (400, 401, 403, 404, 405, 409, 413, 503): `{"detail": "Not authenticated"}`. */
export type HTTPError = Answer<typeof schemas.HTTPError>

export type Intent = z.output<typeof enums.Intent>
export type KnowledgeLevel = z.output<typeof enums.KnowledgeLevel>
export type SkillLevel = z.output<typeof enums.SkillLevel>
export type PrivilegeLevel = z.output<typeof enums.PrivilegeLevel>
export type DataAccessScope = z.output<typeof enums.DataAccessScope>
export type RuleType = z.output<typeof enums.RuleType>
export type RuleCategory = z.output<typeof enums.RuleCategory>
export type RuleStatus = z.output<typeof enums.RuleStatus>
export type ConsequenceAction = z.output<typeof enums.ConsequenceAction>
export type Severity = z.output<typeof enums.Severity>
export type Assignee = z.output<typeof enums.Assignee>
export type ConstraintLogic = z.output<typeof enums.ConstraintLogic>
export type ConstraintOperator = z.output<typeof enums.ConstraintOperator>
export type ExtractedBy = z.output<typeof enums.ExtractedBy>
