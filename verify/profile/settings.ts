import { z } from 'zod'
import { resolveProfile, type Profile, type ProfileOptions } from '../../model/profile.js'

/**
 * The settings verify learns beyond those `model/profile.ts` had first, by the names agreed with the
 * mock's profile (issue #13), which now declares them too. A value this shape takes but the mock's
 * profile does not is still written (a profile file says what the server showed); `resolved`
 * leaves it out.
 */
const bound = z.int().positive().nullable()
const statuses = z.array(z.int().min(400).max(599))
const text = z.string().min(1)

export const LearnedSettings = z
  .object({
    /** `1` from pydantic 1's errors; `2.12`/`2.13` from pydantic 2's UUID message. */
    pydantic: z.enum(['1', '2.12', '2.13']),
    /** `enum`: an unknown intent answers 422; `string`: it matches nothing. */
    intents: z.enum(['string', 'enum']),
    /** A bound the server declares or enforces; `null` where it has none. */
    bounds: z
      .strictObject({ personasLimitMax: bound, rulesLimitMax: bound, bulkMaxItems: bound, valueMaxLength: bound })
      .partial(),
    /** Error answers /openapi.json declares beyond the 422, per operation. */
    declaredErrors: z
      .strictObject({ list_personas: statuses, bulk_add_values: statuses, list_policy_rules: statuses })
      .partial(),
    /** The server's `detail` texts; `{permission}` and `{values}` stand for what varies. */
    errorTexts: z
      .strictObject({
        notAuthenticated: text,
        invalidToken: text,
        teamForbidden: text,
        teamRequired: text,
        missingPermission: text,
        superAdminRequired: text,
        policyNotFound: text,
        dimensionNotFound: text,
        duplicateValues: text,
      })
      .partial(),
  })
  .partial()

export type LearnedSettings = z.input<typeof LearnedSettings>
export type Bounds = NonNullable<LearnedSettings['bounds']>
export type ErrorTexts = NonNullable<LearnedSettings['errorTexts']>

/** What `--profile-out` writes: today's settings and the learned ones. */
export type ProfileFile = Omit<ProfileOptions, keyof LearnedSettings> & LearnedSettings
export type SettingName = keyof ProfileFile

/** Whether the mock's profile (model/profile.ts, as it is now) takes the value. */
export function mockTakes(name: SettingName, value: unknown): boolean {
  try {
    resolveProfile({ [name]: value } as ProfileOptions)
    return true
  } catch {
    return false
  }
}

/** Why a value cannot be written as the setting, or undefined when it can. */
export function settingProblem(name: SettingName, value: unknown): string | undefined {
  if (mockTakes(name, value)) return undefined
  const learned = (LearnedSettings.shape as Record<string, z.ZodType | undefined>)[name]
  if (learned?.safeParse(value).success) return undefined
  try {
    resolveProfile({ [name]: value } as ProfileOptions)
  } catch (error) {
    return (error as Error).message
  }
  return 'not a profile setting'
}

/** `settings` over the mock's defaults: only what the mock's profile takes today. */
export function resolvable(settings: ProfileFile): Profile {
  const taken = Object.fromEntries(
    Object.entries(settings).filter(([name, value]) => mockTakes(name as SettingName, value)),
  )
  return resolveProfile(taken as ProfileOptions)
}
