import type { Claims } from '../model/auth/claims.js'
import type { TokenCheck } from '../model/auth/tokens.js'
import type { Profile } from '../model/profile.js'
import type { World } from '../model/world.js'
import type { QueryParams } from '../fastapi/http/query-string.js'
import type { Outcome } from '../fastapi/http/reply.js'
import type { JsonBudget } from '../fastapi/wire/kept-json.js'

/** Everything one operation needs to answer one request. */
interface OperationContext {
  request: Request
  /** Path parameters as the route matched them: percent-decoded, not yet validated. */
  params: Record<string, string>
  query: QueryParams
  world: World
  profile: Profile
  /** The memory the JSON kept of answered lists may take (the instance's). */
  keptJson: JsonBudget
  /** Checks a bearer token (signature once per distinct token) against the instance's clock. */
  verifyToken: (token: string) => TokenCheck
  /** The instance's clock when the operation started, in whole Unix seconds: what new records are stamped with. */
  now: number
  /**
   * Called once the request is authorized and valid, before the world is queried: an answer in
   * its place (a typed override, core/overrides/index.ts), or `undefined` to go on.
   */
  intercept?: (parsed: ParsedRequest) => Promise<Outcome | undefined>
}

/** A request as the operation sees it once authorized and valid: values validated, claims checked. */
export interface ParsedRequest {
  query: Record<string, unknown>
  params: Record<string, unknown>
  body: unknown
  claims: Claims
}

/**
 * An operation of the API as a thin pipeline: authorize → validate → query the world →
 * shape. Each step returns a value or throws a ready answer (a `Reply`).
 */
export type Operation = (context: OperationContext) => Promise<Outcome>

/** Python slicing accepts any int; a JS index must be a number (a bigint offset is past any end). */
export const toIndex = (value: unknown): number => Number(value)
