import { z } from 'zod'
import { isObject, type JsonSchema, type ServedDocument } from './document.js'

/**
 * A document's schema as the zod schema the mock's pydantic emulation validates (fastapi/pydantic/): the
 * annotation FastAPI's app was written with, read back from the JSON Schema pydantic wrote for it.
 *
 * Read: objects (required fields, defaults, optional fields as `Optional[X] = None`), `anyOf` with null and
 * 3.0's `nullable` as `Optional`, a one-item `allOf` (pydantic 1's spelling of a described `$ref`), string
 * enums, strings (lengths; `uuid`), integers and numbers (inclusive bounds), booleans, arrays (item counts),
 * dicts. Anything else (other unions, patterns, exclusive bounds, dates) is taken as it comes: the limits
 * docs/openapi.md lists. A model that contains itself is taken as it comes below its first level.
 */
export function zodOf(document: ServedDocument, schema: unknown): z.ZodType {
  if (!isObject(schema)) return convert(document, schema, new Set())
  const bySchema = built.get(document) ?? new WeakMap<object, z.ZodType>()
  built.set(document, bySchema)
  let type = bySchema.get(schema)
  if (!type) {
    type = convert(document, schema, new Set())
    bySchema.set(schema, type)
  }
  return type
}

/**
 * The zod schemas built, by document and schema object: each request validates with the one built for it first,
 * as FastAPI builds its validators once. Building one costs what the schema holds (seconds for an enum of
 * 200,000 values), not what the request does.
 */
const built = new WeakMap<ServedDocument, WeakMap<object, z.ZodType>>()

function convert(document: ServedDocument, raw: unknown, open: Set<unknown>): z.ZodType {
  if (isObject(raw) && typeof raw.$ref === 'string') {
    const target = document.deref(raw)
    if (open.has(target)) return z.unknown()
    open.add(target)
    try {
      return convert(document, target, open)
    } finally {
      open.delete(target)
    }
  }
  const schema = document.deref(raw)
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf) as unknown[] | undefined
  if (branches) {
    const others = branches.filter((branch) => !(isObject(branch) && branch.type === 'null'))
    if (others.length !== 1) return z.unknown()
    const inner = convert(document, others[0], open)
    return others.length < branches.length ? inner.nullable() : inner
  }
  // 3.0 cannot put `nullable` beside a `$ref`, so an optional reference is `{allOf: [{$ref}], nullable: true}`.
  const typed =
    Array.isArray(schema.allOf) && schema.allOf.length === 1
      ? convert(document, schema.allOf[0], open)
      : convertTyped(document, schema, open)
  return schema.nullable === true ? typed.nullable() : typed
}

function convertTyped(document: ServedDocument, schema: JsonSchema, open: Set<unknown>): z.ZodType {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string') && schema.enum.length)
    return z.enum(schema.enum as [string, ...string[]])
  switch (schema.type) {
    case 'string':
      return schema.format === 'uuid' ? z.uuid() : lengths(z.string(), schema.minLength, schema.maxLength)
    case 'integer':
      return bounds(z.int(), schema)
    case 'number':
      return bounds(z.number(), schema)
    case 'boolean':
      return z.boolean()
    case 'array':
      return lengths(z.array(convert(document, schema.items ?? {}, open)), schema.minItems, schema.maxItems)
    case 'object':
      return isObject(schema.properties) ? model(document, schema, open) : z.record(z.string(), z.unknown())
    default:
      return isObject(schema.properties) ? model(document, schema, open) : z.unknown()
  }
}

/** A model: required fields as they are, the others with their default, or `None` when they have none. */
function model(document: ServedDocument, schema: JsonSchema, open: Set<unknown>): z.ZodType {
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const shape: Record<string, z.ZodType> = {}
  for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
    const field = convert(document, property, open)
    const fieldDefault = defaultOf(property)
    shape[name] = required.has(name)
      ? field
      : fieldDefault === undefined
        ? field.optional()
        : field.default(fieldDefault.value as never)
  }
  return z.object(shape)
}

/** A field's default, where its schema (or the one-item `allOf` around a reference) writes one. */
function defaultOf(property: unknown): { value: unknown } | undefined {
  return isObject(property) && 'default' in property && property.default !== null
    ? { value: property.default }
    : undefined
}

function lengths<T extends z.ZodString | z.ZodArray>(type: T, min: unknown, max: unknown): T {
  let result = type
  if (typeof min === 'number') result = result.min(min) as T
  if (typeof max === 'number') result = result.max(max) as T
  return result
}

function bounds<T extends z.ZodNumber>(type: T, schema: JsonSchema): T {
  let result = type
  if (typeof schema.minimum === 'number') result = result.min(schema.minimum) as T
  if (typeof schema.maximum === 'number') result = result.max(schema.maximum) as T
  return result
}
