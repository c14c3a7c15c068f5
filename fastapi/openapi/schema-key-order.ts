import { isJsonObject, type JsonSchema } from '../pydantic/json-schema.js'
import { PyFloat } from '../python/value.js'

/**
 * FastAPI validates `components.schemas` into its `Schema` model, whose `model_dump` writes keys in
 * the model's field order: every component (and its subschemas) is rewritten in that order here.
 */

/** The field order of `fastapi.openapi.models.Schema` (by alias): the key order of every component schema. */
const SCHEMA_KEY_ORDER = [
  '$schema',
  '$vocabulary',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$ref',
  '$dynamicRef',
  '$defs',
  '$comment',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'discriminator',
  'xml',
  'externalDocs',
  'example',
]
/** Keys of a `Schema` whose value is one subschema, a list of them, or a name → subschema map. */
const SUBSCHEMA_KEYS = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
])
const SUBSCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems'])
const SUBSCHEMA_MAP_KEYS = new Set(['$defs', 'dependentSchemas', 'properties', 'patternProperties'])

/**
 * A generation of FastAPI's `Schema` model: its field order, and the fields it types `float` (pydantic 1
 * writes `maximum: 100` back as `100.0`).
 */
export interface SchemaModel {
  readonly order: readonly string[]
  readonly floats?: ReadonlySet<string>
}

/** FastAPI ≥0.100's `Schema` (pydantic 2). */
const SCHEMA_MODEL: SchemaModel = { order: SCHEMA_KEY_ORDER }

/** Every component, sorted by name as FastAPI does, each in `Schema` key order. */
export function componentSchemas(
  definitions: ReadonlyMap<string, JsonSchema>,
  model: SchemaModel = SCHEMA_MODEL,
): JsonSchema {
  const sorted: JsonSchema = {}
  for (const name of [...definitions.keys()].sort()) sorted[name] = schemaKeyOrder(definitions.get(name)!, model)
  return sorted
}

/** Rewrites a schema (recursively) in the field order of FastAPI's `Schema` model. */
export function schemaKeyOrder(schema: JsonSchema, model: SchemaModel = SCHEMA_MODEL): JsonSchema {
  const known = model.order.filter((key) => key in schema)
  const extra = Object.keys(schema).filter((key) => !model.order.includes(key))
  const ordered: JsonSchema = {}
  for (const key of [...known, ...extra]) {
    const value = orderSubschemas(key, schema[key], model)
    ordered[key] = model.floats?.has(key) && typeof value === 'number' ? new PyFloat(value) : value
  }
  return ordered
}

/** Subschemas are `Schema` models too; `default`, `enum`, `required` and extras are plain values. */
function orderSubschemas(key: string, value: unknown, model: SchemaModel): unknown {
  if (SUBSCHEMA_KEYS.has(key) && isJsonObject(value)) return schemaKeyOrder(value, model)
  if (SUBSCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
    return value.map((item: unknown) => (isJsonObject(item) ? schemaKeyOrder(item, model) : item))
  }
  if (SUBSCHEMA_MAP_KEYS.has(key) && isJsonObject(value)) {
    const entries = Object.entries(value).map(([name, item]) => [
      name,
      isJsonObject(item) ? schemaKeyOrder(item, model) : item,
    ])
    return Object.fromEntries(entries)
  }
  return value
}
