import type { Interaction, RecordedContract } from '../recording/format.js'
import type { ApiAnswer } from '../client/http.js'
import type { ProfileFile } from '../profile/settings.js'
import type { Evidence } from '../types.js'

/** What a replay needs: the contract, the server, and its ids and tokens for the contract's references and roles. */
export interface ReplayOptions {
  baseUrl: string
  contract: RecordedContract
  /** The server's id for each reference the contract uses (`team 0`, `policy 0 of team 0`, ...). */
  references: Record<string, string>
  /** The server's token for each role (`team_reader`, `super_admin`, ...). */
  tokens: Record<string, string>
  /** The environment variable each role's token comes from, for curl commands (never the token itself). */
  tokenVariables?: Record<string, string>
  /** Replay POSTs (they write to the server). Nothing is written without it. */
  allowWrites?: boolean
  /** The server's profile (`verify --profile-out`), where it differs from the contract's. */
  profile?: ProfileFile
  timeoutMs?: number
}

/** One interaction replayed: what failed (none: it passed), or why it could not be sent. */
export type Judged = { interaction: Interaction; evidence: Evidence[] } | { interaction: Interaction; skipped: string }

export function evidence(answer: ApiAnswer, expected: string, got: string): Evidence {
  return { request: `${answer.request.method} ${answer.request.path}`, expected, got }
}
