import type { z } from 'zod'
import type { Claims } from '../../model/auth/claims.js'
import type {
  BulkAddValuesResponse,
  HTTPError,
  HTTPValidationError,
  OnTheWire,
  PersonaListResponse,
  PolicyRuleListResponse,
  ValidationError,
} from '../../model/api/wire-types.js'
import type { OperationName } from '../../model/api/routes.js'
import type { BulkAddValues, ListPersonasQuery } from '../../model/requests.js'
import type { World } from '../../model/world.js'
import type { BULK_ADD_STATUSES } from '../../model/profile.js'

/** Validated values: every parameter present, `null` where the request left an optional one out. */
type Validated<T> = { [K in keyof T]-?: Exclude<T[K], undefined> }

/**
 * What each operation takes and answers, as its handler sees the request once it is authorized and
 * valid, and as its answer is on the wire (read off the zod schemas, big integers as `number`).
 */
export interface OperationTypes {
  list_personas: {
    query: Validated<OnTheWire<z.output<typeof ListPersonasQuery>>>
    params: Record<string, never>
    body: undefined
    status: 200
    response: PersonaListResponse
  }
  bulk_add_values: {
    query: Record<string, never>
    params: { dimension_id: string }
    body: OnTheWire<z.output<typeof BulkAddValues>>
    /** 201 unless the profile's `bulkAddStatus` says another; any of its statuses may be given. */
    status: (typeof BULK_ADD_STATUSES)[number]
    response: BulkAddValuesResponse
  }
  list_policy_rules: {
    /** The paging parameters, under the profile's names (`limit` and `offset` by default). */
    query: { limit: number; offset: number }
    params: { policy_id: string }
    body: undefined
    status: 200
    response: PolicyRuleListResponse
  }
}

/** The request an override function is given: parsed and checked as the operation's handler sees it. */
export interface OverrideRequest<Op extends OperationName> {
  /** Query parameters, validated (defaults filled in, `null` for optional ones left out). */
  query: OperationTypes[Op]['query']
  /** Path parameters, validated. */
  params: OperationTypes[Op]['params']
  /** The body, validated (defaults filled in); `undefined` for operations without one. */
  body: OperationTypes[Op]['body']
  /** The claims of the request's token (valid: the override runs after authentication). */
  claims: Claims
  /** The world the request is answered on. */
  world: World
  /** The request itself (headers, URL). */
  request: Request
}

/** HTTP's error statuses, for an error answer of your own. */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511

/** A status and a body, written as FastAPI writes the response model (fields in the model's order). */
export type OverrideReply<Op extends OperationName> =
  | {
      /** @default the operation's success status (the profile's, for the bulk add) */
      status?: OperationTypes[Op]['status']
      body: OperationTypes[Op]['response']
      /** Extra response headers, written before `content-length` and `content-type` as Starlette does. */
      headers?: Record<string, string>
    }
  | { status: ErrorStatus; body: HTTPError | HTTPValidationError; headers?: Record<string, string> }

/**
 * A refusal the real server gives, answered with its exact bytes and headers:
 * - `not_authenticated`: no credentials (401 `Not authenticated` with `www-authenticate: Bearer`, or 403 for
 *   the profile's `missingCredentialsStatus: 403`);
 * - `invalid_token`: 401 `Could not validate credentials` with `www-authenticate: Bearer`;
 * - `forbidden`: 403, by default the operation's own text (`Missing permission: persona:read`, ...);
 * - `not_found`: 404, by default the operation's own text (`Policy not found`, `Dimension not found`);
 * - `validation`: 422 `{"detail": [...]}`, pydantic's entries as given;
 * - `server_error`: Starlette's 500, plain text `Internal Server Error`.
 */
export type OverrideError =
  | { error: 'not_authenticated' }
  | { error: 'invalid_token' }
  | { error: 'forbidden'; detail?: string }
  | { error: 'not_found'; detail?: string }
  | { error: 'validation'; detail: ValidationError[] }
  | { error: 'server_error' }

/** What an override answers: a status and a body, or a refusal of the real server. */
export type OverrideResult<Op extends OperationName> = OverrideReply<Op> | OverrideError

/** An override computed from the parsed request. */
export type OverrideFunction<Op extends OperationName> = (
  request: OverrideRequest<Op>,
) => OverrideResult<Op> | Promise<OverrideResult<Op>>

/**
 * What `mock.override(operation, ...)` takes: a status and a body, a refusal, or a function of the
 * parsed request returning either.
 */
export type OperationOverride<Op extends OperationName> = OverrideResult<Op> | OverrideFunction<Op>
