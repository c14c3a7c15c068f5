import { z } from 'zod'
import {
  Consequence,
  DemographicValue,
  FreeFormObject,
  HTTPError,
  Persona,
  PersonaListResponse,
  PolicyRule,
  PolicyRuleListResponse,
  ValidationError,
} from '../../model/schemas.js'
import { errorsGeneration } from '../profile/generation.js'
import { wireSchema, wireShape } from './wire.js'

/**
 * Each response the verifier validates is read twice:
 * - `contract`: what the API description requires, every field present. An issue is a failure.
 * - `exact`: the mock's own schema, strict. An issue the contract pass did not raise (an unknown
 *   extra field, a value outside the vocabulary `decisions.md` chose where the description says
 *   "not shown") is a warning: the server may be right, and the mock would then need to learn it.
 */
export interface SchemaPair {
  /** How reports name the shape, e.g. `PersonaListResponse`. */
  name: string
  contract: z.ZodType
  exact: z.ZodType
}

const loose = { strict: false }
const strict = { strict: true }

/**
 * The persona fields the description marks "Required: no". A server may leave them out (FastAPI's
 * `response_model_exclude_none=True` drops every `None`): absent, they are a warning (the mock always writes
 * every field); a field marked "yes" must be present.
 */
export const OPTIONAL_PERSONA_FIELDS = [
  'description',
  'role_description',
  'knowledge_level',
  'skill_level',
  'intent',
  'language',
  'access_permissions',
  'is_preset',
  'preset_category',
  'tags',
  'icon_filename',
]

/** The fields of `shape` named in `names` (every field when `names` is undefined), made optional; nested objects too when `deep`. */
function optionalFields(shape: Record<string, z.ZodType>, names?: readonly string[], deep = false) {
  const changed: Record<string, z.ZodType> = {}
  for (const [name, field] of Object.entries(shape)) {
    const inner = deep && field instanceof z.ZodObject ? z.object(optionalFields(field.shape, undefined, true)) : field
    changed[name] = !names || names.includes(name) ? inner.optional() : inner
  }
  return changed
}

const ContractPersona = z.object(optionalFields(wireShape(Persona, loose), OPTIONAL_PERSONA_FIELDS))

/**
 * The rule fields whose values the description leaves open hold any string in the contract. "Whether each rule
 * field is required or optional: not shown": every field (and those of its consequence and provenance) may be
 * absent; present, it has its type. Absent is a warning, from the exact pass.
 */
const ContractPolicyRule = z.object(
  optionalFields(
    {
      ...wireShape(PolicyRule, loose),
      consequence: z.object({ ...wireShape(Consequence, loose), action: z.string(), severity: z.string() }),
      assignee: z.string(),
      constraints: z.array(FreeFormObject),
      constraint_logic: z.string(),
    },
    undefined,
    true,
  ),
)

/** The 422 body as the description gives it: `input` and `ctx` are pydantic's, not the description's. */
const ContractValidationError = z.object({
  loc: z.array(z.union([z.string(), z.int()])),
  msg: z.string(),
  type: z.string(),
})

/** `GET /v1/personas/`. */
export const PERSONA_LIST: SchemaPair = {
  name: 'PersonaListResponse',
  contract: z.object({ results: z.array(ContractPersona), total: z.int() }),
  exact: wireSchema(PersonaListResponse, strict),
}

/** `GET /v1/policies/{policy_id}/rules`. */
export const RULE_LIST: SchemaPair = {
  name: 'rules list response',
  contract: z.object({ results: z.array(ContractPolicyRule), total: z.int() }),
  exact: wireSchema(PolicyRuleListResponse, strict),
}

/** The bulk add's answer. */
export const DEMOGRAPHIC_VALUES: SchemaPair = {
  name: 'array of DemographicValue',
  contract: z.array(wireSchema(DemographicValue, loose)),
  exact: z.array(wireSchema(DemographicValue, strict)),
}

/** Every 422 of a pydantic 2 server, as the mock writes it. */
const VALIDATION_ERROR_BODY: SchemaPair = {
  name: 'validation error body',
  contract: z.object({ detail: z.array(ContractValidationError) }),
  exact: z.strictObject({ detail: z.array(wireSchema(ValidationError, strict)) }),
}

/** pydantic 1 writes no `input`: a dialect, not a difference worth a warning. */
const PYDANTIC_1_VALIDATION_ERROR_BODY: SchemaPair = {
  ...VALIDATION_ERROR_BODY,
  exact: z.strictObject({
    detail: z.array(z.strictObject({ ...ContractValidationError.shape, ctx: FreeFormObject.optional() })),
  }),
}

/** The pair to read a 422 body with, in the pydantic dialect it is written in. */
export function validationErrorBody(body: unknown): SchemaPair {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  return Array.isArray(detail) && errorsGeneration(detail) === '1'
    ? PYDANTIC_1_VALIDATION_ERROR_BODY
    : VALIDATION_ERROR_BODY
}

/** Every refusal and unknown resource (401, 403, 404, 409). */
export const HTTP_ERROR_BODY: SchemaPair = {
  name: 'error body {"detail": string}',
  contract: HTTPError,
  exact: z.strictObject(HTTPError.shape),
}
