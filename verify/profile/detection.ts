import type { ProfileFindings } from '../context.js'
import type { Json } from '../client/crawl.js'
import { resolvable, settingProblem, type ProfileFile, type SettingName } from './settings.js'
import type { DetectedProfile, DetectedSetting } from '../types.js'

/** What the answers of a server say about the profile settings of `decisions.md`. */

/** Below 10^11 a timestamp is seconds (until the year 5138); above, milliseconds (since 1973). */
const MILLISECONDS_FROM = 1e11
const TIMESTAMP_FIELDS = ['created_at', 'updated_at', 'reviewed_at']

/** Every integer timestamp of some records. */
export function timestampsOf(records: readonly Json[]): number[] {
  return records.flatMap((record) =>
    TIMESTAMP_FIELDS.map((name) => record[name]).filter(
      (value): value is number => Number.isInteger(value) && (value as number) > 0,
    ),
  )
}

/** `s` or `ms` when every timestamp agrees; undefined when there are none or they disagree. */
export function timestampUnitOf(timestamps: readonly number[]): 's' | 'ms' | undefined {
  if (timestamps.length === 0) return undefined
  const inMilliseconds = timestamps.filter((value) => value >= MILLISECONDS_FROM).length
  if (inMilliseconds === timestamps.length) return 'ms'
  return inMilliseconds === 0 ? 's' : undefined
}

/**
 * pydantic ≤2.12 (uuid crate ≤1.18) says "invalid character: expected an optional prefix of
 * `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1"; 2.13 (uuid 1.23) only "found `n` at 1".
 */
export function pydanticOf(message: string): '2.12' | '2.13' | undefined {
  if (message.includes('invalid character: expected an optional prefix of `urn:uuid:`')) return '2.12'
  return /invalid character: found `.+` at \d+/.test(message) ? '2.13' : undefined
}

/**
 * The findings as a profile: only what was seen goes into `settings`. A value no setting can take
 * (say, a paging name that is not a Python identifier) stays out, and `undetermined` says why.
 */
export function detectedProfile(findings: ProfileFindings): DetectedProfile {
  const settings: Record<string, unknown> = {}
  const detected: DetectedProfile['detected'] = {}
  const undetermined = { ...findings.undetermined }
  for (const [name, setting] of Object.entries(findings.detected) as Array<[SettingName, DetectedSetting]>) {
    const problem = settingProblem(name, setting.value)
    if (problem)
      undetermined[name] = `the server shows ${JSON.stringify(setting.value)}, which the mock cannot take: ${problem}`
    else [settings[name], detected[name]] = [setting.value, setting]
  }
  return {
    settings: settings as ProfileFile,
    resolved: resolvable(settings as ProfileFile),
    detected,
    undetermined,
    observations: findings.observations,
  }
}
