import type { OpenApiDocument } from './openapi-source.js'

/**
 * A schema of an OpenAPI document read the same way whichever pydantic wrote it: `$ref`s followed,
 * pydantic 1's `allOf: [$ref]` (an enum with a default) unwrapped, and pydantic 2's
 * `anyOf: [X, {type: null}]` (or OpenAPI 3.0's `nullable: true`) read as X that may be null.
 */

type Schema = Record<string, unknown>

export interface Node {
  schema: Schema
  nullable: boolean
  ref?: string
}

export const MAX_DEPTH = 8

/** `$ref`, a one-member `allOf` and a nullable `anyOf` read through: the schema as a type, and whether null is allowed. */
export function normalise(document: OpenApiDocument, schema: Schema): Node {
  let node: Node = { schema, nullable: schema['nullable'] === true }
  for (let hops = 0; hops < MAX_DEPTH; hops += 1) {
    const { $ref, allOf, anyOf, ...rest } = node.schema as Schema & {
      $ref?: unknown
      allOf?: Schema[]
      anyOf?: Schema[]
    }
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/components/schemas/', '')
      const target = (document.components?.schemas?.[name] as Schema | undefined) ?? {}
      node = { ...node, ref: name, schema: { ...target, ...rest } }
    } else if (Array.isArray(allOf) && allOf.length === 1) {
      node = { ...node, schema: { ...allOf[0], ...rest } }
    } else if (Array.isArray(anyOf) && anyOf.some((member) => member['type'] === 'null')) {
      const members = anyOf.filter((member) => member['type'] !== 'null')
      node = {
        ...node,
        nullable: true,
        schema: members.length === 1 ? { ...members[0], ...rest } : { ...rest, anyOf: members },
      }
    } else break
  }
  return { ...node, nullable: node.nullable || node.schema['nullable'] === true }
}

export function typeName(document: OpenApiDocument, schema: Schema): string {
  const anyOf = schema['anyOf'] as Schema[] | undefined
  if (anyOf)
    return anyOf
      .map((member) => typeName(document, normalise(document, member).schema))
      .sort()
      .join('|')
  if (schema['properties']) return 'object'
  return typeof schema['type'] === 'string' ? schema['type'] : 'any'
}
