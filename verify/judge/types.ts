import type { Profile } from '../../model/profile.js'

/** One request and its answer, as a proxy or a recording saw them. */
export interface JudgedExchange {
  method: string
  /** The path without origin or query, e.g. `/v1/personas/`. */
  path: string
  /** The raw query string, without `?`. */
  query: string
  /** The request's JSON body, parsed; undefined when there was none (or it was not JSON). */
  requestBody?: unknown
  status: number
  /** The answer's JSON body, parsed; undefined when there was none (or it was not JSON). */
  responseBody?: unknown
  contentType?: string | null
}

/** One way an answer breaks the contract. `check` names it as the verifier's checks do (`filters.team-scope`). */
export interface Violation {
  check: string
  message: string
}

export type JudgeInput = JudgedExchange

/**
 * The profile an answer is judged by, and whether it names the rules paging and what duplicates do (else
 * those choices are unknown, and any of them keeps the contract).
 */
export type JudgedProfile = Profile & { rulesPagingNamed: boolean; bulkDuplicatesNamed: boolean }

/** A request as the server reads it: its parameters validated as FastAPI would, and the body it was sent. */
export interface ReadRequest {
  params: Record<string, unknown>
  query: string
  requestBody: unknown
}
