/**
 * Pact matching rules read off the response model's JSON schema (what /openapi.json says), not off the
 * example: a list matches any number of records of the right shape, an enumeration any of its values,
 * a uuid any uuid. Where the schema says nothing (an error body), the example's JSON types are the rule.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema is read by whichever keywords it has
export type Schema = Record<string, any>
type Matcher = { match: string; min?: number; regex?: string }
export type MatchingRules = Record<string, { combine: 'AND'; matchers: Matcher[] }>

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

/** A response body for a Pact file: the example, less what the schema leaves open, and its matching rules. */
export interface PactBody {
  content: unknown
  rules: MatchingRules
}

/**
 * The body and rules for an example described by `schema` (with `$ref`s into `components`). A field the
 * schema does not require, or allows to be null, is left out of the example: another record may have none,
 * and Pact asserts every key an example has. A free-form object (metadata) is written `{}`: any keys.
 */
export function pactBody(example: unknown, schema: Schema | undefined, components: Schema): PactBody {
  const rules: MatchingRules = {}
  return { content: walk(example, schema, '$', rules, components), rules }
}

function walk(
  value: unknown,
  schema: Schema | undefined,
  path: string,
  rules: MatchingRules,
  components: Schema,
): unknown {
  const resolved = branchFor(value, deref(schema, components), components)
  const add = (matcher: Matcher) => (rules[path] = { combine: 'AND', matchers: [matcher] })
  if (Array.isArray(value)) {
    add({ match: 'type', min: 0 })
    const items = deref(resolved?.items, components)
    return value.length > 0 ? [walk(value[0], items, `${path}[*]`, rules, components)] : []
  }
  if (value !== null && typeof value === 'object') {
    // A free-form object (metadata, a constraint) matches any object: its keys are the app's, not the API's.
    if (resolved && !resolved.properties && resolved.type === 'object') return (add({ match: 'type' }), {})
    const properties: Schema = resolved?.properties ?? {}
    const kept = Object.entries(value).filter(([key]) => !resolved?.properties || isAlwaysThere(resolved, key))
    return Object.fromEntries(
      kept.map(([key, item]) => [key, walk(item, properties[key], `${path}.${key}`, rules, components)]),
    )
  }
  if (typeof value === 'string') add(stringMatcher(resolved))
  else if (typeof value === 'number')
    add({ match: resolved?.type === 'integer' || Number.isInteger(value) ? 'integer' : 'number' })
  else if (typeof value === 'boolean') add({ match: 'boolean' })
  return value
}

/**
 * A field every record has, never null: not `anyOf` with null (pydantic 2's Optional), and required or with
 * a default other than null (pydantic 1 writes an Optional field as a plain, not required one).
 */
function isAlwaysThere(object: Schema, key: string): boolean {
  const property: Schema = object.properties[key] ?? {}
  const branches: Schema[] | undefined = property.anyOf ?? property.oneOf
  if (branches?.some((branch) => branch.type === 'null') || property.nullable === true) return false
  const required: unknown = object.required
  return (
    (Array.isArray(required) && required.includes(key)) || (property.default !== undefined && property.default !== null)
  )
}

function stringMatcher(schema: Schema | undefined): Matcher {
  if (Array.isArray(schema?.enum)) return { match: 'regex', regex: `^(${schema.enum.map(escapeRegex).join('|')})$` }
  if (schema?.format === 'uuid') return { match: 'regex', regex: UUID_REGEX }
  return { match: 'type' }
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function deref(schema: Schema | undefined, components: Schema): Schema | undefined {
  const ref = schema?.$ref
  if (typeof ref !== 'string') return schema
  return components[ref.slice(ref.lastIndexOf('/') + 1)]
}

/** The branch of an `anyOf`/`oneOf`/`allOf` that describes this value (pydantic writes `Optional[X]` as one). */
function branchFor(value: unknown, schema: Schema | undefined, components: Schema): Schema | undefined {
  const branches: Schema[] | undefined = schema?.anyOf ?? schema?.oneOf ?? schema?.allOf
  if (!branches) return schema
  const found = branches.map((branch) => deref(branch, components)).find((branch) => fits(value, branch))
  return found ?? schema
}

function fits(value: unknown, schema: Schema | undefined): boolean {
  const type = schema?.type
  if (value === null) return type === 'null'
  if (Array.isArray(value)) return type === 'array'
  if (typeof value === 'object') return type === 'object' || schema?.properties !== undefined
  if (typeof value === 'number') return type === 'integer' || type === 'number'
  return type === typeof value
}
