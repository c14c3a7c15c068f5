import { DEFAULT_ERROR_TEXTS, type ErrorTextName, type Profile } from '../../model/profile.js'

/**
 * The `detail` of one of the server's own refusals: the profile's text (`errorTexts`) or the default, with
 * its `{permission}` / `{values}` placeholders filled in. Every such text the mock writes comes from here.
 * @example errorText(profile, 'missingPermission', { permission: 'persona:read' }) // 'Missing permission: persona:read'
 */
export function errorText(
  profile: Profile,
  name: ErrorTextName,
  values: Readonly<Record<string, string>> = {},
): string {
  const template = profile.errorTexts[name] ?? DEFAULT_ERROR_TEXTS[name]
  return template.replace(/\{(\w+)\}/g, (placeholder, key: string) => values[key] ?? placeholder)
}
