import type { z } from 'zod'
import { Profile, resolveProfile, type ProfileOptions } from '../../model/profile.js'

/**
 * What `--profile-out` writes: the mock profile's options (model/profile.ts), holding the settings the server
 * showed. The mock's schema is the only one: a value it does not take is never written.
 */
export type ProfileFile = ProfileOptions
export type SettingName = keyof ProfileFile
export type Bounds = NonNullable<ProfileFile['bounds']>
export type ErrorTexts = NonNullable<ProfileFile['errorTexts']>

/**
 * Five of the settings verify learns (the pydantic generation, intents, bounds, declared errors, refusal texts),
 * for programs that read them from a profile file: the mock profile's schema of them, its defaults included.
 * Other settings' keys are dropped, so a whole profile file parses.
 */
export const LearnedSettings = Profile.pick({
  pydantic: true,
  intents: true,
  bounds: true,
  declaredErrors: true,
  errorTexts: true,
}).strip()
export type LearnedSettings = z.input<typeof LearnedSettings>

/** Why the mock's profile refuses a value of the setting (its own message), or undefined when it takes it. */
export function settingProblem(name: SettingName, value: unknown): string | undefined {
  try {
    resolveProfile({ [name]: value } as ProfileOptions)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** Whether the mock's profile takes the value. */
export const mockTakes = (name: SettingName, value: unknown): boolean => settingProblem(name, value) === undefined

/** `settings` over the mock's defaults: only what the mock's profile takes. */
export function resolvable(settings: ProfileFile): Profile {
  const taken = Object.fromEntries(
    Object.entries(settings).filter(([name, value]) => mockTakes(name as SettingName, value)),
  )
  return resolveProfile(taken as ProfileOptions)
}
