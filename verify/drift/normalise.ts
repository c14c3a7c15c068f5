import type { OpenApiDocument } from './openapi-source.js'

/**
 * A schema of an OpenAPI document read the same way whichever generation wrote it: `$ref`s followed,
 * pydantic 1's `allOf: [$ref]` (an enum with a default) unwrapped, null read from any of its spellings
 * (pydantic 2's `anyOf: [X, {type: null}]`, OpenAPI 3.0's `nullable: true`, 3.1's `type: [X, "null"]`,
 * a `oneOf` with null), and OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` and `const`
 * written as 3.1 does. What is left is the schema as a type, and whether null is allowed.
 */

type Schema = Record<string, unknown>

export interface Node {
  schema: Schema
  nullable: boolean
  ref?: string
}

export const MAX_DEPTH = 8

const isNull = (member: Schema) => member['type'] === 'null'

/** `$ref`, a one-member `allOf` and a nullable `anyOf`/`oneOf` read through. */
export function normalise(document: OpenApiDocument, schema: Schema): Node {
  let node: Node = { schema, nullable: schema['nullable'] === true }
  for (let hops = 0; hops < MAX_DEPTH; hops += 1) {
    const { $ref, allOf, anyOf, oneOf, ...rest } = node.schema as Schema & {
      $ref?: unknown
      allOf?: Schema[]
      anyOf?: Schema[]
      oneOf?: Schema[]
    }
    const union = anyOf ?? oneOf
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/components/schemas/', '')
      const target = (document.components?.schemas?.[name] as Schema | undefined) ?? {}
      node = { ...node, ref: name, schema: { ...target, ...rest } }
    } else if (Array.isArray(allOf) && allOf.length === 1) {
      node = { ...node, schema: { ...allOf[0], ...rest } }
    } else if (Array.isArray(union) && union.some(isNull)) {
      const members = union.filter((member) => !isNull(member))
      node = {
        ...node,
        nullable: true,
        schema: members.length === 1 ? { ...members[0], ...rest } : { ...rest, anyOf: members },
      }
    } else break
  }
  const { schema: spelled, nullable } = asOpenApi31(node.schema)
  return { ...node, schema: spelled, nullable: node.nullable || nullable || spelled['nullable'] === true }
}

/** OpenAPI 3.0's spellings as 3.1 writes them, and 3.1's `type: [X, "null"]` as X that may be null. */
function asOpenApi31(schema: Schema): { schema: Schema; nullable: boolean } {
  const spelled: Schema = { ...schema }
  let nullable = false
  if (Array.isArray(spelled['type'])) {
    const types = (spelled['type'] as unknown[]).filter((type) => type !== 'null')
    nullable = types.length < (spelled['type'] as unknown[]).length
    spelled['type'] = types.length === 1 ? types[0] : types
  }
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (spelled[exclusive] === true) [spelled[exclusive], spelled[bound]] = [spelled[bound], undefined]
    if (spelled[exclusive] === false) delete spelled[exclusive]
    if (spelled[bound] === undefined) delete spelled[bound]
  }
  if ('const' in spelled && !('enum' in spelled)) spelled['enum'] = [spelled['const']]
  return { schema: spelled, nullable }
}

/** The JSON types a schema allows, or `any` when it says nothing (`{}`, FastAPI's schema of an undeclared model). */
export function typesOf(document: OpenApiDocument, schema: Schema): Set<string> | 'any' {
  const anyOf = schema['anyOf'] as Schema[] | undefined
  if (anyOf) {
    const members = anyOf.map((member) => typesOf(document, normalise(document, member).schema))
    if (members.includes('any')) return 'any'
    return new Set(members.flatMap((member) => [...(member as Set<string>)]))
  }
  if (schema['properties']) return new Set(['object'])
  const type = schema['type']
  if (typeof type === 'string') return new Set([type])
  if (Array.isArray(type)) return new Set(type as string[])
  if (Array.isArray(schema['enum'])) return new Set((schema['enum'] as unknown[]).map(jsonType))
  return 'any'
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** `integer` is a `number`; `any` holds every type. */
export function allows(wide: Set<string> | 'any', narrow: Set<string> | 'any'): boolean {
  if (wide === 'any') return true
  if (narrow === 'any') return false
  return [...narrow].every((type) => wide.has(type) || (type === 'integer' && wide.has('number')))
}

export const typeWords = (types: Set<string> | 'any') => (types === 'any' ? 'any' : [...types].sort().join('|'))
