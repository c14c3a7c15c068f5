import { z } from 'zod'
import type { Outcome } from '../../fastapi/http/reply.js'
import { Permission } from '../../model/auth/claims.js'
import { API_ROUTES, type OperationName } from '../../model/api/routes.js'
import { errorText } from '../../fastapi/http/error-texts.js'
import { encodedJsonResponse, httpError, internalServerError, jsonResponse } from '../../fastapi/http/responses.js'
import { invalidToken, notAuthenticated } from '../../fastapi/http/security.js'
import type { Profile } from '../../model/profile.js'
import { HTTPError, ValidationError } from '../../model/schemas.js'
import { writeResource } from '../../fastapi/wire/encode.js'
import { CONNECTION_HEADERS } from '../connection-headers.js'

/** An override FastAPI could not have answered: an unknown shape, a status or a body its response model refuses. */
export class InvalidOverrideError extends TypeError {
  override name = 'InvalidOverrideError'
  constructor(
    readonly operation: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid override of ${operation}: ${problems.join('; ')}`)
  }
}

/** An override's result once checked: its answer under a profile. */
export type PreparedAnswer = (profile: Profile) => Outcome

/** Headers every host can send: a token for a name (RFC 9110); a value of tabs, visible ASCII and Latin-1. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Headers of the connection and the body's framing, which an answer given as a body cannot set. */
const FRAMING_HEADERS = new Set([...CONNECTION_HEADERS, 'content-length'])
const HeaderMap = z
  .record(
    z.string(),
    z.string().regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'a header value holds tabs, visible ASCII and Latin-1 only'),
  )
  .refine((headers) => Object.keys(headers).every((name) => HEADER_NAME.test(name)), {
    message: "not a header name: use letters, digits and !#$%&'*+-.^_`|~",
  })
  .refine((headers) => !Object.keys(headers).some((name) => FRAMING_HEADERS.has(name.toLowerCase())), {
    message: `the server writes ${[...FRAMING_HEADERS].join(', ')} itself: leave them out`,
  })
/** A 422 entry an override writes: FastAPI's declared fields; pydantic 2's `input` when given (pydantic 1 sends none). */
const OverrideValidationError = ValidationError.extend({ input: z.unknown().optional() })
const OverrideValidationBody = z.object({ detail: z.array(OverrideValidationError) })
const ErrorShape = z.discriminatedUnion('error', [
  z.object({ error: z.enum(['not_authenticated', 'invalid_token', 'server_error']) }).strict(),
  z.object({ error: z.enum(['forbidden', 'not_found']), detail: z.string().optional() }).strict(),
  z.object({ error: z.literal('validation'), detail: z.array(OverrideValidationError) }).strict(),
])
const ReplyShape = z.object({ status: z.int().optional(), body: z.unknown(), headers: HeaderMap.optional() }).strict()
const ErrorBody = z.union([HTTPError.strict(), OverrideValidationBody.strict()])

/**
 * How an operation answers what an override gives: its success written through its response model (checked
 * first), and the words of its 403 and 404 where the override gives none.
 */
export interface OverrideAnswers {
  /** @throws InvalidOverrideError for a status or body the operation cannot answer */
  success(status: number | undefined, body: unknown, headers: Record<string, string>): PreparedAnswer
  forbidden(profile: Profile): string
  notFound(profile: Profile): string
}

/**
 * Checks what an override answers (a status and a body, or an error shape) against the operation's
 * schemas, and prepares its answer: written as FastAPI writes it, through the response model.
 * @throws InvalidOverrideError naming each problem
 * @example prepareAnswer('list_personas', { status: 200, body: { results: [], total: 0 } })(profile)
 */
export function prepareAnswer(operation: OperationName, result: unknown): PreparedAnswer {
  return prepareAnswerWith(operation, result, {
    success: (status, body, headers) => success(operation, status, body, headers),
    forbidden: (profile) => forbiddenText(operation, profile),
    notFound: (profile) => notFoundText(operation, profile),
  })
}

/** {@link prepareAnswer} for any operation (a served document's too), answering as `answers` say. */
export function prepareAnswerWith(operation: string, result: unknown, answers: OverrideAnswers): PreparedAnswer {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw new InvalidOverrideError(operation, ['give {"status", "body"}, {"error"} or a function of the request'])
  if ('error' in result) {
    const shape = ErrorShape.safeParse(result)
    if (!shape.success) throw new InvalidOverrideError(operation, problemsOf(shape.error))
    return refusal(shape.data, answers)
  }
  if (!('body' in result)) throw new InvalidOverrideError(operation, ['body: give the body to answer'])
  const reply = ReplyShape.safeParse(result)
  if (!reply.success) throw new InvalidOverrideError(operation, problemsOf(reply.error))
  const { status, body, headers = {} } = reply.data
  if (status !== undefined && status >= 400 && status <= 599) {
    const error = ErrorBody.safeParse(body)
    if (!error.success) throw new InvalidOverrideError(operation, errorBodyProblems(body))
    return () => jsonResponse(status, { detail: error.data.detail }, headers)
  }
  return answers.success(status, body, headers)
}

/** A success answer: the status the operation may answer, the body its response model takes, in the model's order. */
function success(operation: OperationName, status: number | undefined, body: unknown, headers: Record<string, string>) {
  const allowed = operation === 'bulk_add_values' ? [200, 201] : [200]
  if (status !== undefined && !allowed.includes(status)) {
    const expected = `${allowed.join(' or ')}, or an error status (400 to 599)`
    throw new InvalidOverrideError(operation, [`status: ${status} is not an answer of ${operation}: give ${expected}`])
  }
  const route = API_ROUTES.find((candidate) => candidate.name === operation)
  if (!route) throw new InvalidOverrideError(operation, ['no such operation'])
  const parsed = route.response.schema.safeParse(body)
  if (!parsed.success) throw new InvalidOverrideError(operation, problemsOf(parsed.error, 'body'))
  return (profile: Profile) =>
    encodedJsonResponse(
      status ?? route.response.status(profile),
      writeResource(route.response.schema, parsed.data, asOnTheWire(profile)),
      headers,
    )
}

/** The refusal an error shape names, as the real server words it for this operation and profile. */
function refusal(shape: z.output<typeof ErrorShape>, answers: OverrideAnswers): PreparedAnswer {
  switch (shape.error) {
    case 'not_authenticated':
      return notAuthenticated
    case 'invalid_token':
      return invalidToken
    case 'server_error':
      return internalServerError
    case 'forbidden':
      return (profile) => httpError(403, shape.detail ?? answers.forbidden(profile))
    case 'not_found':
      return (profile) => httpError(404, shape.detail ?? answers.notFound(profile))
    case 'validation':
      return () => jsonResponse(422, { detail: shape.detail })
  }
}

function forbiddenText(operation: OperationName, profile: Profile): string {
  if (operation === 'bulk_add_values') return errorText(profile, 'superAdminRequired')
  const permission = operation === 'list_personas' ? Permission.personaRead : Permission.policyRead
  return errorText(profile, 'missingPermission', { permission })
}

function notFoundText(operation: OperationName, profile: Profile): string {
  if (operation === 'list_policy_rules') return errorText(profile, 'policyNotFound')
  if (operation === 'bulk_add_values') return errorText(profile, 'dimensionNotFound')
  return 'Not Found'
}

/**
 * The profile an override's body is written with: its timestamps are already in the wire's unit,
 * so they are written as they are (the mock's own records are kept in seconds and scaled).
 */
function asOnTheWire(profile: Profile): Profile {
  if (profile.timestampUnit === 's') return profile
  let wire = wireProfileCache.get(profile)
  if (!wire) wireProfileCache.set(profile, (wire = { ...profile, timestampUnit: 's' }))
  return wire
}
/** Each profile's copy for override bodies; keyed weakly, so a profile nobody answers with goes with its copy. */
const wireProfileCache = new WeakMap<Profile, Profile>()

function errorBodyProblems(body: unknown): string[] {
  const detail = (body as { detail?: unknown } | null)?.detail
  const schema = Array.isArray(detail) ? OverrideValidationBody.strict() : HTTPError.strict()
  const parsed = schema.safeParse(body)
  return parsed.success ? [] : problemsOf(parsed.error, 'body')
}

export const problemsOf = (error: z.ZodError, prefix?: string): string[] =>
  error.issues.map(
    (issue) =>
      `${[prefix, ...issue.path].filter((part) => part !== undefined).join('.') || 'override'}: ${issue.message}`,
  )
