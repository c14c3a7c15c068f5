import { z } from 'zod'
import {
  Assignee,
  ConsequenceAction,
  ConstraintLogic,
  ConstraintOperator,
  DataAccessScope,
  ExtractedBy,
  Intent,
  KnowledgeLevel,
  PrivilegeLevel,
  RuleCategory,
  RuleStatus,
  RuleType,
  Severity,
  SkillLevel,
} from './enums.js'

/**
 * The records of the API, as the wire carries them: field order is the order of the
 * description's tables, every field is present, and an optional field without a value is
 * `null`. The same schemas build the @msw/data collections and shape every response.
 * Timestamps are stored as integer Unix seconds; the profile may scale them on the wire.
 */
export const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
  message: 'not a lower-case hyphenated UUID',
})
export const Timestamp = z.int().nonnegative()
/** A free-form JSON object (Python `Dict[str, Any]`). */
export const FreeFormObject = z.record(z.string(), z.unknown())

export const Team = z.object({
  id: Uuid,
  name: z.string(),
  created_at: Timestamp,
})

export const PersonaAccessPermissions = z.object({
  privilege_level: PrivilegeLevel.default('user'),
  allowed_agents: z.array(z.string()).nullable().default(null),
  allowed_tools: z.array(z.string()).nullable().default(null),
  restricted_actions: z.array(z.string()).nullable().default(null),
  data_access_scope: DataAccessScope.nullable().default(null),
})

export const Persona = z.object({
  id: Uuid,
  team_id: Uuid,
  name: z.string(),
  description: z.string().nullable().default(null),
  role: z.string(),
  role_description: z.string().nullable().default(null),
  knowledge_level: KnowledgeLevel.default('intermediate'),
  skill_level: SkillLevel.default('competent'),
  intent: Intent.default('benign'),
  language: z.string().default('en'),
  access_permissions: z.union([PersonaAccessPermissions.strict(), FreeFormObject]).nullable().default(null),
  is_preset: z.boolean().default(false),
  preset_category: z.string().nullable().default(null),
  tags: z.array(z.string()).nullable().default(null),
  icon_filename: z.string().nullable().default(null),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: Uuid,
})

/** The dimension record's own fields are "not shown"; these are the mock's. */
export const DemographicDimension = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string().nullable().default(null),
  created_at: Timestamp,
})

/** sort_order is a Python int: exact even past 2^53, so a bigint where it must be. */
export const SortOrder = z.union([z.int(), z.bigint()])

export const DemographicValue = z.object({
  id: Uuid,
  dimension_id: Uuid,
  value: z.string(),
  created_at: Timestamp,
  display_name: z.string(),
  value_metadata: z.custom<object>((value) => typeof value === 'object' && value !== null),
  sort_order: SortOrder,
})

/** The policy record's own fields are "not shown"; these are the mock's. */
export const Policy = z.object({
  id: Uuid,
  team_id: Uuid,
  name: z.string(),
  description: z.string().nullable().default(null),
  created_at: Timestamp,
  updated_at: Timestamp,
})

export const Consequence = z.object({
  action: ConsequenceAction,
  severity: Severity,
  message: z.string(),
})

export const Constraint = z.object({
  left_operand: z.string(),
  operator: ConstraintOperator,
  right_operand: z.string(),
})

export const SourceLocation = z.object({
  section: z.string(),
  paragraph: z.int(),
  char_start: z.int(),
  char_end: z.int(),
  source_text: z.string(),
})

export const Provenance = z.object({
  extracted_by: ExtractedBy,
  /** The description types it as a string: a manual rule says `""` (decisions.md), never `null`. */
  model_used: z.string(),
  confidence_score: z.number(),
  source_location: SourceLocation,
})

export const PolicyRule = z.object({
  id: Uuid,
  policy_id: Uuid,
  rule_id: z.string(),
  rule_type: RuleType,
  action: z.string(),
  consequence: Consequence,
  natural_language: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  target: z.string(),
  assignee: Assignee,
  constraints: z.array(Constraint),
  constraint_logic: ConstraintLogic,
  provenance: Provenance,
  category: RuleCategory,
  tags: z.array(z.string()),
  status: RuleStatus,
  // `Optional[...] = None` in the FastAPI model: not required in its schema, `null` while a draft.
  reviewed_by: Uuid.nullable().default(null),
  reviewed_at: Timestamp.nullable().default(null),
  review_notes: z.string().nullable().default(null),
})

export const PersonaListResponse = z.object({ results: z.array(Persona), total: z.int() })
export const PolicyRuleListResponse = z.object({ results: z.array(PolicyRule), total: z.int() })

/** One entry of a 422 `detail`: pydantic's error dict as FastAPI writes it (`url` stripped). */
export const ValidationError = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.int()])),
  msg: z.string(),
  input: z.unknown(),
  ctx: FreeFormObject.optional(),
})
export const HTTPValidationError = z.object({ detail: z.array(ValidationError) })
/** The body of every HTTPException FastAPI raises (401, 403, 404, 400, 409, 413). */
export const HTTPError = z.object({ detail: z.string() })

export type Team = z.infer<typeof Team>
export type Persona = z.infer<typeof Persona>
export type PersonaAccessPermissions = z.infer<typeof PersonaAccessPermissions>
export type DemographicDimension = z.infer<typeof DemographicDimension>
export type DemographicValue = z.infer<typeof DemographicValue>
export type Policy = z.infer<typeof Policy>
export type PolicyRule = z.infer<typeof PolicyRule>
export type ValidationError = z.infer<typeof ValidationError>
