import { z } from 'zod'
import { schemas } from 'agent-console-mock'
import { unquote } from '../../../fastapi/python/url-quote.js'
import type { Answer } from '../../support/answer.js'

export type OperationName = 'list_personas' | 'bulk_add_values' | 'list_policy_rules'

/** What the API description, `decisions.md` and the README allow each operation to answer, with the `detail` of each error. */
const DOCUMENTED: Record<OperationName, Record<number, RegExp | 'list' | 'values' | 'validation'>> = {
  list_personas: {
    200: 'list',
    400: /^team_id is required$/,
    401: /^(Not authenticated|Could not validate credentials)$/,
    403: /^(Missing permission: persona:read|Not authorized for this team)$/,
    422: 'validation',
  },
  bulk_add_values: {
    201: 'values',
    400: /^There was an error parsing the body$/,
    401: /^(Not authenticated|Could not validate credentials)$/,
    403: /^Super admin permission required$/,
    404: /^Dimension not found$/,
    409: /^Duplicate values: .+$/s,
    413: /^Request body too large$/,
    422: 'validation',
  },
  list_policy_rules: {
    200: 'list',
    401: /^(Not authenticated|Could not validate credentials)$/,
    403: /^Missing permission: policy:read$/,
    404: /^Policy not found$/,
    422: 'validation',
  },
}

export const documentedStatuses = (operation: OperationName): number[] => Object.keys(DOCUMENTED[operation]).map(Number)

const ROUTES: ReadonlyArray<{ operation: OperationName; method: string; pattern: RegExp }> = [
  // Python's `$` also matches before one final newline, and Starlette compiles `^...$`.
  { operation: 'list_personas', method: 'GET', pattern: /^\/v1\/personas\/\n?$/ },
  { operation: 'bulk_add_values', method: 'POST', pattern: /^\/v1\/demographics\/[^/]+\/values\/bulk\n?$/ },
  { operation: 'list_policy_rules', method: 'GET', pattern: /^\/v1\/policies\/[^/]+\/rules\n?$/ },
]

/** What a request may get: one operation's documented answers, or one routing answer. */
export type Expectation = { operation: OperationName } | { status: 307 | 404 | 405; allow?: string }

/**
 * Where Starlette sends a request, worked out independently of the mock's router: routes
 * match the percent-decoded path; a path that matches with another method is a 405 (HEAD
 * too: FastAPI's routes, unlike Starlette's, do not add it to GET); a path whose slash twin
 * matches is a 307; anything else is a 404.
 * @param pathname the path as the mock receives it (a fetch URL's `pathname`)
 */
export function expectationFor(method: string, pathname: string): Expectation {
  const path = unquote(pathname)
  const matching = ROUTES.filter((route) => route.pattern.test(path))
  const full = matching.find((route) => route.method === method)
  if (full) return { operation: full.operation }
  if (matching[0]) return { status: 405, allow: matching[0].method }
  const twin = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`
  if (path !== '/' && ROUTES.some((route) => route.pattern.test(twin))) return { status: 307 }
  return { status: 404 }
}

const ERROR_TYPES = new Set([
  'missing',
  'int_type',
  'int_parsing',
  'int_parsing_size',
  'int_from_float',
  'finite_number',
  'greater_than_equal',
  'less_than_equal',
  'bool_type',
  'bool_parsing',
  'string_type',
  'string_unicode',
  'string_too_short',
  'string_too_long',
  'dict_type',
  'list_type',
  'model_attributes_type',
  'uuid_type',
  'uuid_parsing',
  'too_long',
  'json_invalid',
])

/** A 422 entry as FastAPI writes it: these keys in this order, `ctx` only when the error type has one. */
const ValidationEntry = z
  .object({
    type: z.string().refine((type) => ERROR_TYPES.has(type), 'a pydantic error type'),
    loc: z
      .array(z.union([z.string(), z.int()]))
      .min(1)
      .refine((loc) => ['query', 'path', 'body'].includes(String(loc[0])), 'loc starts with query, path or body'),
    msg: z.string().min(1),
    input: z.unknown(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
const ValidationBody = z.object({ detail: z.array(ValidationEntry).min(1) }).strict()

// A sort_order past 2^53 arrives from JSON.parse as an unsafe (but integral) number.
const WireValue = schemas.DemographicValue.extend({ sort_order: z.number().refine(Number.isInteger, 'an integer') })

/**
 * Problems with an answer, as messages (none: it is documented). Checks the status against
 * the expectation, the body against its schema (fields in schema order, nothing extra), and
 * the headers FastAPI always sends with it.
 */
export function problemsWith(expectation: Expectation, method: string, answer: Answer): string[] {
  const problems: string[] = []
  const { status, headers, text } = answer
  const expect = (ok: boolean, problem: string) => void (ok || problems.push(problem))
  if ('status' in expectation) {
    expect(status === expectation.status, `status ${status}, the route table says ${expectation.status}`)
    if (status === 307) {
      expect(text === '' && headers.get('content-length') === '0', '307 with a body')
      expect(URL.canParse(headers.get('location') ?? ''), `307 location ${headers.get('location')}`)
      return problems
    }
    if (status === 405) expect(headers.get('allow') === expectation.allow, `405 allow ${headers.get('allow')}`)
    if (method !== 'HEAD')
      expect(
        text === `{"detail":"${status === 405 ? 'Method Not Allowed' : 'Not Found'}"}`,
        `${status} body ${text.slice(0, 200)}`,
      )
    return problems
  }
  const rules = DOCUMENTED[expectation.operation]
  const rule = rules[status]
  if (rule === undefined)
    return [
      `${expectation.operation} answered ${status}, not in ${Object.keys(rules).join(', ')}: ${text.slice(0, 300)}`,
    ]
  expect(headers.get('content-type') === 'application/json', `content-type ${headers.get('content-type')}`)
  if (method === 'HEAD') return problems
  expect(headers.get('content-length') === String(Buffer.byteLength(text)), 'content-length is not the body length')
  const json = answer.json as unknown
  if (json === undefined) return [...problems, `${status} body is not JSON: ${text.slice(0, 200)}`]
  if (status === 401) expect(headers.get('www-authenticate') === 'Bearer', '401 without www-authenticate: Bearer')
  if (rule instanceof RegExp) {
    const body = schemas.HTTPError.strict().safeParse(json)
    expect(body.success && rule.test(body.data.detail), `${status} body ${text.slice(0, 300)}`)
  } else if (rule === 'validation') {
    const body = ValidationBody.safeParse(json)
    expect(body.success, `422 body ${text.slice(0, 300)}: ${body.error?.message}`)
  } else {
    const schema =
      rule === 'values'
        ? WireValue.array()
        : expectation.operation === 'list_personas'
          ? schemas.PersonaListResponse
          : schemas.PolicyRuleListResponse
    const parsed = schema.safeParse(json)
    expect(parsed.success, `${status} body does not fit its schema: ${parsed.error?.message.slice(0, 500)}`)
    expect(keysInOrder(schema, json), `${status} body fields are not the schema's, in its order: ${text.slice(0, 300)}`)
  }
  return problems
}

type Def = {
  type: string
  innerType?: z.core.$ZodType
  shape?: Record<string, z.core.$ZodType>
  element?: z.core.$ZodType
}

/** Whether every object of a value has exactly its schema's fields, in the schema's order (as FastAPI's response_model writes them). */
export function keysInOrder(schema: z.core.$ZodType, value: unknown): boolean {
  const def = schema._zod.def as unknown as Def
  if (value === null) return true
  switch (def.type) {
    case 'default':
    case 'nullable':
    case 'optional':
      return keysInOrder(def.innerType!, value)
    case 'array':
      return Array.isArray(value) && value.every((item) => keysInOrder(def.element!, item))
    case 'object': {
      const shape = def.shape!
      const keys = Object.keys(value as object)
      return (
        keys.join() === Object.keys(shape).join() &&
        keys.every((key) => keysInOrder(shape[key]!, (value as Record<string, unknown>)[key]))
      )
    }
    default:
      return true
  }
}
