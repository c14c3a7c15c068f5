import { z } from 'zod'
import * as schemas from '../../model/schemas.js'
import { isJsonObject, type JsonSchema } from './schema-object.js'

/** pydantic's `ValidationsMapping`: constraint → JSON Schema keyword, in the order pydantic writes them. */
const NUMERIC_KEYWORDS = ['multipleOf', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern'] as const
export const ARRAY_KEYWORDS = ['minItems', 'maxItems'] as const

/**
 * Project schemas that stand for a Python type the zod schema cannot show: the mock's `Uuid` is a
 * lowercase regex because it also generates ids, but the model field is a `UUID`; `Timestamp` is
 * non-negative for the factories, but the field is a plain `int`; `SortOrder` admits a bigint only
 * to keep Python's unbounded `int` exact; `value_metadata` is a `Dict[str, Any]` the mock checks by hand.
 */
const PYTHON_TYPES = new Map<z.ZodType, () => JsonSchema>([
  [schemas.Uuid, () => ({ type: 'string', format: 'uuid' })],
  [schemas.Timestamp, () => ({ type: 'integer' })],
  [schemas.SortOrder, () => ({ type: 'integer' })],
  [schemas.DemographicValue.shape.value_metadata, () => ({ type: 'object', additionalProperties: true })],
])

/** Whether a project schema stands for a Python type of its own (see PYTHON_TYPES). */
export const isPythonType = (schema: z.ZodType): boolean => PYTHON_TYPES.has(schema)

/** The JSON schema pydantic 2 gives a project schema that stands for a Python type (see PYTHON_TYPES). */
export const pythonTypeSchema = (schema: z.ZodType): JsonSchema | undefined => PYTHON_TYPES.get(schema)?.()

/**
 * A scalar's Python type, as pydantic 1 (`field_class_to_schema`) and 2 write it, by zod's def type:
 * format schemas such as `z.uuid()` are not `ZodString` instances, but their def says `type: 'string'`
 * and names the format.
 */
export function plainScalarSchema(schema: z.ZodType): JsonSchema {
  const def = schema._zod.def as { type: string; format?: string }
  switch (def.type) {
    case 'string':
      return def.format === 'uuid' || def.format === 'guid' ? { type: 'string', format: 'uuid' } : { type: 'string' }
    case 'number':
      return { type: def.format?.includes('int') ? 'integer' : 'number' }
    case 'bigint':
      return { type: 'integer' }
    case 'boolean':
      return { type: 'boolean' }
    case 'unknown':
    case 'any':
      return {}
    default:
      throw new Error(`No Python type is known for a zod ${def.type} schema`)
  }
}

/** pydantic 2's scalar: its Python type, and the constraints of a string (not a UUID) or a number. */
export function scalarSchema(schema: z.ZodType): JsonSchema {
  const plain = plainScalarSchema(schema)
  if (plain['format'] === 'uuid') return plain
  const { type } = schema._zod.def
  if (type === 'string') return withConstraints(plain, schema, STRING_KEYWORDS)
  return type === 'number' ? withConstraints(plain, schema, NUMERIC_KEYWORDS) : plain
}

/** The pydantic constraints of zod's checks, in the order `update_with_validations` writes them. */
export function withConstraints(base: JsonSchema, schema: z.ZodType, keywords: readonly string[]): JsonSchema {
  const found = checkConstraints(schema)
  for (const keyword of keywords) if (keyword in found) base[keyword] = found[keyword]
  return base
}

/** The zod check definitions this module understands. */
interface CheckDef {
  check: string
  value?: number
  inclusive?: boolean
  minimum?: number
  maximum?: number
  length?: number
  format?: string
  pattern?: RegExp
}

/** Translates zod checks into JSON Schema keywords (for numbers, strings and arrays alike). */
function checkConstraints(schema: z.ZodType): Record<string, unknown> {
  const found: Record<string, unknown> = {}
  const checks = (schema._zod.def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>
  const lengthKeywords = schema instanceof z.ZodArray ? ['minItems', 'maxItems'] : ['minLength', 'maxLength']
  for (const {
    _zod: { def },
  } of checks) {
    if (def.check === 'greater_than') found[def.inclusive ? 'minimum' : 'exclusiveMinimum'] = def.value
    else if (def.check === 'less_than') found[def.inclusive ? 'maximum' : 'exclusiveMaximum'] = def.value
    else if (def.check === 'multiple_of') found['multipleOf'] = def.value
    else if (def.check === 'min_length') found[lengthKeywords[0]!] = def.minimum
    else if (def.check === 'max_length') found[lengthKeywords[1]!] = def.maximum
    else if (def.check === 'length_equals') {
      found[lengthKeywords[0]!] = def.length
      found[lengthKeywords[1]!] = def.length
    } else if (def.check === 'string_format' && def.format === 'regex' && def.pattern)
      found['pattern'] = def.pattern.source
  }
  return found
}

/** pydantic's `get_flattened_anyof`: a lone `anyOf` member is spliced in, duplicates dropped. */
export function flattenedAnyOf(members: JsonSchema[]): JsonSchema {
  const flat = members.flatMap((member) =>
    Object.keys(member).length === 1 && Array.isArray(member['anyOf']) ? (member['anyOf'] as JsonSchema[]) : [member],
  )
  const seen = new Set<string>()
  const unique = flat.filter((member) => {
    const key = canonicalJson(member)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return unique.length === 1 ? unique[0]! : { anyOf: unique }
}

/** JSON with sorted keys: Python dict equality ignores key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}
