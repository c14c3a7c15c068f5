import type { Profile } from '../model/profile.js'
import type { ProfileFile } from './profile/settings.js'

/** What `verify()` needs to know about the server under test. */
export interface VerifyOptions {
  /** Where the API lives, e.g. `https://staging.example.com` (paths start with `/v1`). */
  baseUrl: string
  /** A team-scoped token with `persona:read` and `policy:read`: the caller most checks act as. */
  token: string
  /** The token's team; discovered from the personas the token lists when not given. */
  teamId?: string
  /** A policy of the token's team (the API cannot list policies): the rules checks need it. */
  policyId?: string
  /** A dimension to add values to (the API cannot list dimensions): the bulk checks need it. */
  dimensionId?: string
  /** A super admin token: the bulk add and its validation need one. */
  adminToken?: string
  /** Add uniquely named values to `dimensionId`. Nothing is ever written without it. */
  allowWrites?: boolean
  /** A token without `persona:read` and `policy:read`, for `auth.no-permission`. */
  noPermToken?: string
  /** A policy of another team than the token's, for `auth.other-team-policy`. */
  otherPolicyId?: string
  /**
   * A real team the token is not of, for `auth.other-team`: a server that checks only that a team exists lets a
   * random id through to a refusal. Read from a super admin's personas when not given.
   */
  otherTeamId?: string
  /** Milliseconds each request may take. @default 10000 */
  timeoutMs?: number
  /** Milliseconds the whole run may take; checks left when it runs out are skipped. @default 120000 */
  deadlineMs?: number
}

/** What a failed expectation shows: the request sent, what the contract expects, what came back. */
export interface Evidence {
  request: string
  expected: string
  got: string
  /** A ready command that sends the request again; tokens come from the environment, never printed. */
  curl?: string
}

/**
 * Which side of the rule a check is on. Only `contract` checks fail: where a frontend built against
 * the mock could break on the server. `dialect` (what the pydantic or FastAPI generation shows) and
 * `choice` (where the description is silent, or the server is more lenient) are reported and written
 * into the profile, never failed.
 */
export type CheckKind = 'contract' | 'dialect' | 'choice'

/** A check passed, failed (with evidence) or was skipped (with a reason). */
export type CheckStatus = 'passed' | 'failed' | 'skipped'

/** The part of the contract a check belongs to: the first part of its id. */
export type CheckGroup =
  | 'schema'
  | 'paging'
  | 'filters'
  | 'validation'
  | 'auth'
  | 'errors'
  | 'bulk'
  | 'profile'
  | 'drift'
  | 'replay'

/** The outcome of one check. */
export interface CheckResult {
  /** Stable id, e.g. `paging.total-stable`: the group, a dot, the name. */
  id: string
  group: CheckGroup
  kind: CheckKind
  /** One line: what the check holds the server to. */
  description: string
  status: CheckStatus
  /** Why it was skipped. */
  reason?: string
  /** Every expectation that failed. */
  evidence: Evidence[]
  /** Differences that are not failures (unknown extra fields, another vocabulary, ...). */
  warnings: string[]
  /** What the check saw that is worth reading (e.g. a detected profile value). */
  notes: string[]
  durationMs: number
}

/** How one profile setting was found. */
export interface DetectedSetting {
  value: unknown
  /** The request or document that showed it. */
  source: string
}

/** The profile a server shows, where the API description is silent (`decisions.md`). */
export interface DetectedProfile {
  /** Only the settings the run could see: what `--profile-out` writes, for `agent-console-mock --profile`. */
  settings: ProfileFile
  /** `settings` over the mock's defaults (those settings the mock's profile knows). */
  resolved: Profile
  detected: Partial<Record<keyof ProfileFile, DetectedSetting>>
  /** Settings the run could not see, and why; the mock's default stays. */
  undetermined: Partial<Record<keyof ProfileFile, string>>
  /** What the server shows that the mock has no setting for (orderings, error texts). */
  observations: Record<string, string>
}

/** The counts of a run; the pretty report ends with the first three. */
export interface ReportSummary {
  passed: number
  failed: number
  skipped: number
  warnings: number
}

/** Everything a run found. `ok` is true when no check failed. */
export interface Report {
  baseUrl: string
  startedAt: string
  durationMs: number
  ok: boolean
  summary: ReportSummary
  /** The ids the run worked with, given or discovered. */
  ids: { teamId?: string; policyId?: string; dimensionId?: string; otherPolicyId?: string; otherTeamId?: string }
  /** How the run went about it: discovered ids, requests sent. */
  notes: string[]
  checks: CheckResult[]
  profile: DetectedProfile
  /**
   * Set when the run's deadline skipped checks: the verdict is incomplete whatever `ok` says (the command exits 3
   * unless a check failed). `errors.server-error` is among them when no request got a 5xx.
   */
  cutShort?: { deadlineMs: number; skippedChecks: string[] }
}
