import { closest, distance } from 'fastest-levenshtein'
import { z } from 'zod'

/** The endpoint names, which are also the operationIds' stems and the faults' keys (re-exported by model/api/routes.ts). */
export const OPERATION_NAMES = ['list_personas', 'bulk_add_values', 'list_policy_rules'] as const
export type OperationName = (typeof OPERATION_NAMES)[number]

/**
 * The `detail` of each refusal the imagined server writes itself (FastAPI's own 404/405/422 texts are not
 * here). `{permission}` and `{values}` are placeholders.
 */
export const DEFAULT_ERROR_TEXTS = {
  notAuthenticated: 'Not authenticated',
  invalidToken: 'Could not validate credentials',
  teamForbidden: 'Not authorized for this team',
  teamRequired: 'team_id is required',
  missingPermission: 'Missing permission: {permission}',
  superAdminRequired: 'Super admin permission required',
  policyNotFound: 'Policy not found',
  dimensionNotFound: 'Dimension not found',
  duplicateValues: 'Duplicate values: {values}',
} as const
export type ErrorTextName = keyof typeof DEFAULT_ERROR_TEXTS

/** The mock's bounds: the personas and rules limits are the API description's, the bulk ones `decisions.md`'s. */
export const DEFAULT_BOUNDS = {
  personasLimitMax: 100,
  rulesLimitMax: 1000,
  bulkMaxItems: 1000,
  valueMaxLength: 255,
} as const

const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
const bound = (fallback: number, minimum: number) => z.int().min(minimum).nullable().default(fallback)
const statuses = z.array(z.int().min(400).max(599)).optional()
const perOperation = Object.fromEntries(OPERATION_NAMES.map((name) => [name, statuses]))
const errorTexts = Object.fromEntries(Object.keys(DEFAULT_ERROR_TEXTS).map((name) => [name, z.string().optional()]))

/**
 * The statuses a bulk add may answer its records with (the description does not show which): 201 Created, the
 * default, and 200, 202 Accepted, 203 and 207 Multi-Status, which bulk APIs use too. 204 and 205 carry no body,
 * and 206 answers a range request: none of them can be the answer "a JSON array of demographic value records".
 */
export const BULK_ADD_STATUSES = [201, 200, 202, 203, 207] as const

/**
 * Where the API description is silent, `decisions.md` settles a default and names the
 * switch. A team aligns the mock with its real server by changing these (the contract
 * verifier reports which value a real server shows).
 */
export const Profile = z
  .object({
    /** Status for a missing or non-Bearer `Authorization`: FastAPI ≥0.122 answers 401, ≤0.121 403. */
    missingCredentialsStatus: z.literal([401, 403]).default(401),
    /** Success status of the bulk add: one of {@link BULK_ADD_STATUSES}. */
    bulkAddStatus: z.literal([...BULK_ADD_STATUSES]).default(201),
    /**
     * A value already in the dimension, or repeated in the request. `skip`: left out of the answer; `reject`: 409
     * and nothing is added; `store`: stored and answered again, as a server without a uniqueness rule does.
     */
    bulkDuplicates: z.enum(['skip', 'reject', 'store']).default('skip'),
    /** Unit of every integer timestamp on the wire. */
    timestampUnit: z.enum(['s', 'ms']).default('s'),
    /**
     * pydantic version. `2.12`/`2.13` differ only in the UUID "invalid character" message; `1` is FastAPI 0.92 +
     * pydantic 1.10: pydantic 1's 422 bodies, lax coercions and OpenAPI 3.0.2 dialect.
     */
    pydantic: z.enum(['2.12', '2.13', '1']).default('2.12'),
    /** Names and default of the rules paging parameters. */
    rulesPaging: z
      .object({
        limit: identifier.default('limit'),
        offset: identifier.default('offset'),
        defaultLimit: z.int().min(1).max(1000).default(100),
      })
      .strict()
      .refine((paging) => paging.limit !== paging.offset, 'limit and offset need two different names')
      .default({ limit: 'limit', offset: 'offset', defaultLimit: 100 }),
    /** `enum`: the `intents` query values are `List[Intent]` (an unknown one is a 422), not `List[str]`. */
    intents: z.enum(['string', 'enum']).default('string'),
    /** The declared bounds; `null`: the server declares and enforces none (`valueMaxLength: null` is a plain `str`). */
    bounds: z
      .object({
        personasLimitMax: bound(DEFAULT_BOUNDS.personasLimitMax, 1),
        rulesLimitMax: bound(DEFAULT_BOUNDS.rulesLimitMax, 1),
        bulkMaxItems: bound(DEFAULT_BOUNDS.bulkMaxItems, 0),
        valueMaxLength: bound(DEFAULT_BOUNDS.valueMaxLength, 1),
      })
      .strict()
      .default({ ...DEFAULT_BOUNDS }),
    /** Error answers an operation declares in /openapi.json (`responses={401: {"description": "Unauthorized"}}`). */
    declaredErrors: z
      .object(perOperation as Record<OperationName, typeof statuses>)
      .strict()
      .default({}),
    /** The `detail` texts of the server's own 400/401/403/404/409 answers, over {@link DEFAULT_ERROR_TEXTS}. */
    errorTexts: z
      .object(errorTexts as Record<ErrorTextName, z.ZodOptional<z.ZodString>>)
      .strict()
      .default({}),
  })
  .strict()

export type Profile = z.output<typeof Profile>
export type ProfileOptions = z.input<typeof Profile>

export const DEFAULT_PROFILE: Profile = Profile.parse({})

/**
 * Merges profile options over the defaults.
 * @throws Error naming each setting that is not valid, and what it accepts.
 * @example resolveProfile({ missingCredentialsStatus: 403, timestampUnit: 'ms' })
 */
export function resolveProfile(options: ProfileOptions = {}): Profile {
  const result = Profile.safeParse(options)
  if (result.success) return result.data
  const problems = result.error.issues.map(
    (issue) => `${issue.path.join('.') || '(profile)'}: ${issue.message}${suggestion(issue)}`,
  )
  throw new Error(`Invalid mock profile. ${problems.join('; ')}`)
}

/** For a misspelt setting, the nearest one of the same object (a profile file is hand-written). */
function suggestion(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys' || issue.keys.length !== 1) return ''
  const known = settingsAt(issue.path)
  const near = known.length > 0 ? closest(issue.keys[0]!, known) : undefined
  return near && distance(near, issue.keys[0]!) <= 3 ? ` (did you mean "${near}"?)` : ''
}

/** The names of the settings of the profile's object at `path`. */
function settingsAt(path: readonly PropertyKey[]): string[] {
  let schema: unknown = Profile
  for (const key of path) schema = objectOf(schema)?.shape[key as string]
  return Object.keys(objectOf(schema)?.shape ?? {})
}

function objectOf(schema: unknown): z.ZodObject | undefined {
  let inner = schema
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap()
  return inner instanceof z.ZodObject ? inner : undefined
}
