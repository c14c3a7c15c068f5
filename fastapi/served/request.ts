import { z } from 'zod'
import type { Claims } from '../../model/auth/claims.js'
import type { TokenCheck } from '../../model/auth/tokens.js'
import type { Profile } from '../../model/profile.js'
import { readBody } from '../http/body.js'
import { pathReader, queryReader, throwIfInvalid, validateParams, type ParamSource } from '../http/params.js'
import type { QueryParams } from '../http/query-string.js'
import { authenticate } from '../http/security.js'
import { missingBody, unwritableValues, validateInput, type ValidationIssue } from '../pydantic/dialect.js'
import { MISSING } from '../pydantic/validate.js'
import { PyDict, PyFloat } from '../python/value.js'
import type { DocumentOperation, ServedDocument } from './document.js'
import { zodOf } from './to-zod.js'

/** A request to a document's operation once FastAPI would let it through: plain JSON values. */
export interface ServedRequest {
  params: Record<string, unknown>
  query: Record<string, unknown>
  /** The validated body (undefined: the operation takes none). */
  body: Record<string, unknown> | unknown[] | string | number | boolean | null | undefined
  /** The body's keys as sent, for a partial update (`exclude_unset`). */
  sentKeys: ReadonlySet<string>
  claims: Claims | undefined
}

export interface ServedRequestContext {
  request: Request
  params: Record<string, string>
  query: QueryParams
  profile: Profile
  verifyToken: (token: string) => TokenCheck
}

/**
 * What FastAPI does before the endpoint runs: the bearer dependency first (401/403), then the path and query
 * parameters and the body, every error in one 422 in the profile's dialect.
 * @throws Response the refusal
 */
export async function parseServedRequest(
  document: ServedDocument,
  operation: DocumentOperation,
  { request, params, query, profile, verifyToken }: ServedRequestContext,
): Promise<ServedRequest> {
  const settings = { pydantic: profile.pydantic }
  // FastAPI reads the body (a malformed one answers 422 at once) before it solves the bearer dependency.
  const input = operation.body ? await readBody(request, settings) : MISSING
  const claims = operation.bearer ? await authenticate(request, profile, verifyToken) : undefined
  const [path, query_] = paramSources(document, operation, params, query).map((group) =>
    validateParams([group], settings),
  ) as [ValidatedParams, ValidatedParams]
  const errors = [...path.errors, ...query_.errors]
  let body: unknown
  let sentKeys = new Set<string>()
  if (operation.body) {
    sentKeys = new Set(input instanceof PyDict ? input.keys() : [])
    const outcome =
      input === MISSING
        ? operation.body.required
          ? { ok: false as const, errors: [missingBody(settings)] }
          : { ok: true as const, value: null }
        : validateInput(zodOf(document, operation.body.schema), input, ['body'], settings, input)
    if (outcome.ok) body = outcome.value
    else errors.push(...(outcome.errors as ValidationIssue[]))
    if (!errors.length) errors.push(...unwritableValues(settings, body, ['body']))
  }
  throwIfInvalid(errors)
  return {
    params: toJson(path.values) as Record<string, unknown>,
    query: toJson(query_.values) as Record<string, unknown>,
    body: toJson(body) as ServedRequest['body'],
    sentKeys,
    claims,
  }
}

type ValidatedParams = ReturnType<typeof validateParams>

/** The path and query parameters, as FastAPI validates them: path first, each in declaration order. */
function paramSources(
  document: ServedDocument,
  operation: DocumentOperation,
  params: Record<string, string>,
  query: QueryParams,
): [ParamSource, ParamSource] {
  const schemas = paramSchemasOf(document, operation)
  return [
    { source: 'path', schema: schemas.path, read: pathReader(params) },
    { source: 'query', schema: schemas.query, read: queryReader(query) },
  ]
}

/**
 * Builds the validators of an operation's request and answer now (the mock's start), not on its first request:
 * a schema of a large enum costs seconds to build, which FastAPI also spends once, at start.
 */
export function prepareValidators(document: ServedDocument, operation: DocumentOperation): void {
  paramSchemasOf(document, operation)
  if (operation.body) zodOf(document, operation.body.schema)
  if (operation.success.schema) zodOf(document, operation.success.schema)
}

type ParamSchemas = { path: ParamSource['schema']; query: ParamSource['schema'] }

/** An operation's path and query parameters as zod objects, built on its first request and kept. */
const paramSchemas = new WeakMap<DocumentOperation, ParamSchemas>()

function paramSchemasOf(document: ServedDocument, operation: DocumentOperation): ParamSchemas {
  let schemas = paramSchemas.get(operation)
  if (!schemas) {
    schemas = { path: paramSchema(document, operation, 'path'), query: paramSchema(document, operation, 'query') }
    paramSchemas.set(operation, schemas)
  }
  return schemas
}

function paramSchema(document: ServedDocument, operation: DocumentOperation, source: 'path' | 'query') {
  const declared = operation.parameters.filter((parameter) => parameter.in === source)
  const shape = Object.fromEntries(
    declared.map((parameter) => {
      const type = zodOf(document, parameter.schema)
      const fieldDefault = parameter.schema.default
      if (parameter.required) return [parameter.name, type]
      return [parameter.name, fieldDefault === undefined ? type.optional() : type.default(fieldDefault as never)]
    }),
  )
  return z.object(shape)
}

/** A validated Python value as plain JSON: floats and big ints as numbers, dicts as objects. */
export function toJson(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof PyDict) return Object.fromEntries([...value].map(([key, item]) => [key, toJson(item)]))
  if (Array.isArray(value)) return value.map(toJson)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]))
  return value
}
