import { z } from 'zod'
import { Intent } from './enums.js'
import { FreeFormObject } from './schemas.js'
import { DEFAULT_PROFILE, type Profile } from './profile.js'

/**
 * The parameters and bodies of the three operations, as the imagined FastAPI endpoints
 * declare them (`decisions.md`). Field order is the endpoint signature's order, which is
 * the order FastAPI reports validation errors in. `pydantic/` reads these schemas and
 * validates exactly as pydantic would; the OpenAPI document is built from them. Some depend
 * on the profile (intents typing, bounds, paging names): each is built once per profile.
 */

/** One schema per profile object (profiles are resolved once and kept). */
function perProfile<T>(build: (profile: Profile) => T): (profile: Profile) => T {
  // Keyed weakly: a profile nobody answers with any more takes its schema with it.
  const schemaCache = new WeakMap<Profile, T>()
  return (profile) => {
    let schema = schemaCache.get(profile)
    if (schema === undefined) schemaCache.set(profile, (schema = build(profile)))
    return schema
  }
}

/** `le=maximum`, or no upper bound at all when the profile says `null`. */
const upTo = (schema: z.ZodInt, maximum: number | null) => (maximum === null ? schema : schema.max(maximum))

export const listPersonasQuery = perProfile(({ intents, bounds }) =>
  z.object({
    team_id: z.uuid().nullable().optional().describe('Team ID (required)'),
    intents: z
      .array(intents === 'enum' ? Intent : z.string())
      .nullable()
      .optional(),
    is_preset: z.boolean().nullable().optional(),
    search: z.string().nullable().optional(),
    limit: upTo(z.int().min(1), bounds.personasLimitMax).default(10),
    offset: z.int().min(0).default(0),
  }),
)

export const BulkAddPath = z.object({ dimension_id: z.uuid() })

/**
 * `value: constr(min_length=1, max_length=N)`; with no maximum the app declares a plain `str` (a `constr` with
 * only a minimum is rare, and a server that shows no maxLength shows no minLength either).
 */
const demographicValueCreate = perProfile(({ bounds }) =>
  z
    .object({
      value: bounds.valueMaxLength === null ? z.string() : z.string().min(1).max(bounds.valueMaxLength),
      display_name: z.string().nullable().optional(),
      metadata: FreeFormObject.default(() => ({})),
      sort_order: z.int().nullable().optional(),
    })
    .meta({ title: 'DemographicValueCreate' }),
)

export const bulkAddValues = perProfile((profile) => {
  const items = z.array(demographicValueCreate(profile))
  const maximum = profile.bounds.bulkMaxItems
  return z.object({ values: maximum === null ? items : items.max(maximum) }).meta({ title: 'BulkAddValues' })
})

export const ListRulesPath = z.object({ policy_id: z.uuid() })

/** The rules paging parameters: their names and default are a profile setting, and so is the maximum. */
export const listRulesQuery = perProfile(({ rulesPaging: paging, bounds }) =>
  z.object({
    [paging.limit]: upTo(z.int().min(1), bounds.rulesLimitMax).default(paging.defaultLimit),
    [paging.offset]: z.int().min(0).default(0),
  }),
)

/** The default profile's schemas, under the Python class names the OpenAPI components take. */
export const ListPersonasQuery = listPersonasQuery(DEFAULT_PROFILE)
export const DemographicValueCreate = demographicValueCreate(DEFAULT_PROFILE)
export const BulkAddValues = bulkAddValues(DEFAULT_PROFILE)
