import type { ProfileFindings } from '../context.js'
import type { Json } from '../client/crawl.js'
import { resolvable, settingProblem, type ProfileFile, type SettingName } from './settings.js'
import type { DetectedProfile, DetectedSetting } from '../types.js'

/** What the answers of a server say about the profile settings of `decisions.md`. */

/**
 * The unit and epoch of the integer timestamps are "not shown"; the mock's timestampUnit takes Unix
 * seconds or milliseconds. A timestamp is read as one of them only where it lands between 1980 and
 * 2286 in it: microseconds, or another epoch, are neither, and no unit is guessed for them.
 */
const UNIX_RANGES = { s: [315_532_800, 1e10], ms: [315_532_800_000, 1e13] } as const
const TIMESTAMP_FIELDS = ['created_at', 'updated_at', 'reviewed_at']

/** Every integer timestamp of some records. */
export function timestampsOf(records: readonly Json[]): number[] {
  return records.flatMap((record) =>
    TIMESTAMP_FIELDS.map((name) => record[name]).filter(
      (value): value is number => Number.isInteger(value) && (value as number) > 0,
    ),
  )
}

/** `s` or `ms` when one timestamp is a plausible Unix time in it, else undefined. */
export function unixUnitOf(timestamp: number): 's' | 'ms' | undefined {
  const units = Object.keys(UNIX_RANGES) as Array<keyof typeof UNIX_RANGES>
  return units.find((unit) => timestamp >= UNIX_RANGES[unit][0] && timestamp < UNIX_RANGES[unit][1])
}

/** `s` or `ms` when every timestamp is a Unix time in it; undefined when there are none, or they are not. */
export function timestampUnitOf(timestamps: readonly number[]): 's' | 'ms' | undefined {
  const units = new Set(timestamps.map(unixUnitOf))
  const [unit] = units
  return units.size === 1 ? unit : undefined
}

/** Why no unit was read from some timestamps, naming one that shows it. */
export function timestampsUnread(timestamps: readonly number[]): string {
  if (timestamps.length === 0) return 'no integer timestamp was read'
  const odd = timestamps.find((value) => unixUnitOf(value) === undefined)
  return odd === undefined
    ? 'the timestamps mix Unix seconds and milliseconds'
    : `${timestamps.length} timestamps are not all Unix seconds or milliseconds (e.g. ${odd}: another unit or epoch)`
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
