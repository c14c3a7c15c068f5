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

/** Rules for a JSON body whose example is `example`, described by `schema` (with `$ref`s into `components`). */
export function bodyMatchers(example: unknown, schema: Schema | undefined, components: Schema): MatchingRules {
  const rules: MatchingRules = {}
  walk(example, schema, '$', rules, components)
  return rules
}

function walk(value: unknown, schema: Schema | undefined, path: string, rules: MatchingRules, components: Schema) {
  const resolved = branchFor(value, deref(schema, components), components)
  const add = (matcher: Matcher) => (rules[path] = { combine: 'AND', matchers: [matcher] })
  if (Array.isArray(value)) {
    add({ match: 'type', min: 0 })
    if (value.length > 0) walk(value[0], deref(resolved?.items, components), `${path}[*]`, rules, components)
  } else if (value !== null && typeof value === 'object') {
    const properties = resolved?.properties ?? {}
    // A free-form object (metadata, a constraint) matches any object: its keys are the app's, not the API's.
    if (resolved && !resolved.properties && resolved.type === 'object') return add({ match: 'type' })
    for (const [key, item] of Object.entries(value)) walk(item, properties[key], `${path}.${key}`, rules, components)
  } else if (typeof value === 'string') {
    add(stringMatcher(resolved))
  } else if (typeof value === 'number') {
    add({ match: resolved?.type === 'integer' || Number.isInteger(value) ? 'integer' : 'number' })
  } else if (typeof value === 'boolean') {
    add({ match: 'boolean' })
  }
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
