import { DEFAULT_PROFILE } from '../../model/profile.js'
import type { CheckScope } from './check.js'
import { mockTakes, type SettingName } from '../profile/settings.js'
import type { DetectedSetting } from '../types.js'

/**
 * Where the description is silent, a server may answer either way: the profile checks never fail.
 * They say which value the server shows (written to the profile file), or skip saying why not.
 */
export function detect(scope: CheckScope, setting: SettingName, value: unknown, source: string): void {
  scope.ctx.profile.detected[setting] = { value, source }
  const fallback = (DEFAULT_PROFILE as Record<string, unknown>)[setting]
  const mock = fallback === undefined ? '' : ` (mock default ${JSON.stringify(fallback)})`
  const pending = mockTakes(setting, value) ? '' : "; the mock's profile does not take it yet"
  scope.note(`${setting}: ${JSON.stringify(value)}${mock}, from ${source}${pending}`)
}

/** Detects the setting as an earlier check saw it, or skips saying why it was not seen. */
export function detectSeen(
  scope: CheckScope,
  setting: SettingName,
  seen: DetectedSetting | undefined,
  unseen: string,
): void {
  if (!seen) undetermined(scope, setting, unseen)
  detect(scope, setting, seen.value, seen.source)
}

export function undetermined(scope: CheckScope, setting: SettingName, reason: string): never {
  scope.ctx.profile.undetermined[setting] = reason
  return scope.skip(`${setting} not seen: ${reason}; the mock's default stays`)
}

/** Something the mock has no setting for: kept in the report's profile observations. */
export function observe(scope: CheckScope, name: string, value: string): void {
  scope.ctx.profile.observations[name] = value
  scope.note(`${name}: ${value}`)
}
