import { declaredResponse } from '../http/responses.js'
import { validateInput } from '../pydantic/dialect.js'
import { decodeJsonBody } from '../python/json-decode.js'
import { toJson } from './request.js'
import { zodOf } from './to-zod.js'
import type { Reply } from '../http/reply.js'
import { PyFloat } from '../python/value.js'
import { isObject, type DocumentOperation, type ServedDocument } from './document.js'

/**
 * The declared success answer of an operation for a value, as FastAPI's `response_model` writes it: the
 * model's fields in declaration order (absent ones as their default, else `null`), `float` fields as floats
 * (`1.0`), nothing else. An operation that declares no content answers without a body.
 */
export function servedAnswer(document: ServedDocument, operation: DocumentOperation, value: unknown): Reply {
  const { status, contentType, schema } = operation.success
  if (contentType === undefined) return declaredResponse(status)
  const body = schema ? wire(document, schema, value, 0) : value
  return declaredResponse(status, { type: contentType, body: body ?? null })
}

const MAX_DEPTH = 32

function wire(document: ServedDocument, raw: unknown, value: unknown, depth: number): unknown {
  const schema = document.deref(raw)
  if (value === null || value === undefined || depth > MAX_DEPTH) return value ?? null
  const branches = (schema.anyOf ?? schema.oneOf ?? (Array.isArray(schema.allOf) && schema.allOf)) as unknown[]
  if (Array.isArray(branches)) {
    const branch = branches.map((item) => document.deref(item)).find((item) => fits(item, value))
    return branch ? wire(document, branch, value, depth + 1) : value
  }
  if (schema.type === 'number' && typeof value === 'number') return new PyFloat(value)
  if (Array.isArray(value)) return value.map((item) => wire(document, schema.items ?? {}, item, depth + 1))
  if (isObject(value) && isObject(schema.properties)) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [
        name,
        wire(document, property, name in value ? value[name] : defaultOf(document, property), depth + 1),
      ]),
    )
  }
  if (isObject(value) && isObject(schema.additionalProperties)) {
    const items = schema.additionalProperties
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wire(document, items, item, depth + 1)]))
  }
  return value
}

function defaultOf(document: ServedDocument, property: unknown): unknown {
  const schema = document.deref(property)
  return isObject(property) && 'default' in property ? property.default : (schema.default ?? null)
}

/** Whether a branch of a union is the one a value was validated by (the first that takes its JSON type). */
function fits(schema: Record<string, unknown>, value: unknown): boolean {
  switch (schema.type) {
    case 'null':
      return value === null
    case 'array':
      return Array.isArray(value)
    case 'object':
      return isObject(value)
    case 'string':
      return typeof value === 'string'
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return isObject(schema.properties) ? isObject(value) : true
  }
}

/** How deep a record's JSON may nest when it is checked (as deep as a state file may). */
const RECORD_DEPTH = 64

/**
 * What FastAPI's response validation would find wrong with a record answered as `schema` (its `response_model`):
 * `loc: msg` for each error, as pydantic 2 validates an answer (lax), none when it fits.
 * @example recordProblems(document, agentSchema, { name: null }) // ['name: Input should be a valid string', ...]
 */
export function recordProblems(document: ServedDocument, schema: unknown, record: unknown): string[] {
  if (schema === undefined) return []
  const checked = withoutOptionalNulls(document, schema, record, 0)
  const decoded = decodeJsonBody(new TextEncoder().encode(JSON.stringify(checked)), RECORD_DEPTH)
  if (!decoded.ok) return ['not a JSON value']
  const outcome = validateInput(zodOf(document, schema), decoded.value, [], { pydantic: '2.13' })
  if (!outcome.ok) return outcome.errors.map(({ loc, msg }) => `${loc.join('.') || 'the record'}: ${msg}`)
  return driftFrom(toJson(outcome.value), checked, [])
}

/**
 * Where a record that validates still is not what FastAPI would send: lax validation takes `"0.5"` for a float or
 * an upper-case UUID, which the answer would write as `0.5` and in lower case, while the mock answers what it holds.
 * Only the fields the record has are compared (a default it lacks is written by the answer itself).
 */
function driftFrom(written: unknown, held: unknown, path: string[]): string[] {
  if (isObject(written) && isObject(held))
    return Object.keys(written).flatMap((name) =>
      name in held ? driftFrom(written[name], held[name], [...path, name]) : [],
    )
  if (Array.isArray(written) && Array.isArray(held) && written.length === held.length)
    return written.flatMap((item, index) => driftFrom(item, held[index], [...path, String(index)]))
  if (written === held) return []
  return [`${path.join('.') || 'the record'}: the answer would write ${JSON.stringify(written)}`]
}

/**
 * The value without the `null`s of fields its schema does not require. pydantic 1 writes an `Optional[X]` field
 * as a plain optional `X`, with no `null` allowed, though FastAPI writes `null` for it: a record holding one is
 * one FastAPI sends, and is not refused for it (a pydantic 2 default that is not `null` is then not held to it).
 */
function withoutOptionalNulls(document: ServedDocument, raw: unknown, value: unknown, depth: number): unknown {
  if (depth > RECORD_DEPTH) return value
  const schema = modelOf(document, raw)
  if (Array.isArray(value)) return value.map((item) => withoutOptionalNulls(document, schema.items, item, depth + 1))
  if (!isObject(value) || !isObject(schema.properties)) return value
  const properties = schema.properties
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, item]) => item !== null || required.has(name))
      .map(([name, item]) => [name, withoutOptionalNulls(document, properties[name], item, depth + 1)]),
  )
}

/** The schema itself under an `Optional[...]` (`anyOf` with null) or a described `$ref` (a one-item `allOf`). */
function modelOf(document: ServedDocument, raw: unknown): Record<string, unknown> {
  const schema = document.deref(raw)
  const branches = Array.isArray(schema.allOf) ? schema.allOf : Array.isArray(schema.anyOf) ? schema.anyOf : []
  const others = branches.filter((branch) => !(isObject(branch) && branch.type === 'null'))
  return others.length === 1 ? modelOf(document, others[0]) : schema
}
