import { z } from 'zod'
import * as enums from '../model/enums.js'
import * as requests from '../model/requests.js'
import * as schemas from '../model/schemas.js'

/** A JSON schema, as pydantic writes one. */
export type JsonSchema = { [key: string]: unknown }

export function isJsonObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The JSON Schema pydantic generates for the Python types the zod schemas stand for (models,
 * enums, fields, constraints), collected as FastAPI collects component definitions.
 */

export type Mode = 'validation' | 'serialization'

export const REF_PREFIX = '#/components/schemas/'

/** FastAPI's own 422 component schemas, as emitted up to 0.128.0 (0.128.1 added `input` and `ctx`). */
export const VALIDATION_ERROR: JsonSchema = {
  title: 'ValidationError',
  type: 'object',
  properties: {
    loc: { title: 'Location', type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    msg: { title: 'Message', type: 'string' },
    type: { title: 'Error Type', type: 'string' },
  },
  required: ['loc', 'msg', 'type'],
}
export const HTTP_VALIDATION_ERROR: JsonSchema = {
  title: 'HTTPValidationError',
  type: 'object',
  properties: { detail: { title: 'Detail', type: 'array', items: { $ref: `${REF_PREFIX}ValidationError` } } },
}

/** pydantic's `ValidationsMapping`: constraint → JSON Schema keyword, in the order pydantic writes them. */
const NUMERIC_KEYWORDS = ['multipleOf', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern'] as const
const ARRAY_KEYWORDS = ['minItems', 'maxItems'] as const

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

/** The JSON schema pydantic 2 gives a project schema that stands for a Python type (see PYTHON_TYPES). */
export const pythonTypeSchema = (schema: z.ZodType): JsonSchema | undefined => PYTHON_TYPES.get(schema)?.()

/**
 * The Python class name of each model and enum: the zod export name, as the imagined app names its
 * pydantic models and `str` enums after the same records.
 */
const MODEL_NAMES: ReadonlyMap<z.ZodType, string> = new Map(
  [enums, schemas, requests].flatMap((module) =>
    Object.entries(module).flatMap(([name, value]) =>
      value instanceof z.ZodObject || value instanceof z.ZodEnum ? [[value as z.ZodType, name] as const] : [],
    ),
  ),
)

/**
 * The component definitions reached while describing the routes, keyed by Python class name.
 * A model is described once; the mode is kept only to say which side first used it, since no
 * zod schema here reads differently for validation and serialization (so FastAPI would emit no
 * `-Input`/`-Output` pair).
 */
export class SchemaRegistry {
  readonly #definitions = new Map<string, JsonSchema>()
  readonly #schemaOf = new Map<string, z.ZodType>()

  /** A `$ref` to the model or enum's component, describing it on first use. */
  reference(schema: z.ZodType, name: string, mode: Mode): JsonSchema {
    const known = this.#schemaOf.get(name)
    if (known !== undefined && known !== schema && !sameShape(known, schema)) {
      throw new Error(`Two different schemas are named ${name}`)
    }
    if (known === undefined) {
      this.#schemaOf.set(name, schema)
      this.#definitions.set(name, {})
      this.#definitions.set(name, definitionSchema(schema, name, this, mode))
    }
    return { $ref: `${REF_PREFIX}${name}` }
  }

  /** The 422 response refers to FastAPI's own error schemas: adds them, gives the `$ref`. */
  useValidationError(): JsonSchema {
    this.#definitions.set('HTTPValidationError', HTTP_VALIDATION_ERROR)
    this.#definitions.set('ValidationError', VALIDATION_ERROR)
    return { $ref: `${REF_PREFIX}HTTPValidationError` }
  }

  definitions(): ReadonlyMap<string, JsonSchema> {
    return this.#definitions
  }
}

/** A model's or an enum's component schema. */
function definitionSchema(schema: z.ZodType, name: string, registry: SchemaRegistry, mode: Mode): JsonSchema {
  if (schema instanceof z.ZodEnum) return enumSchema(schema, name)
  if (schema instanceof z.ZodObject) return modelSchema(schema, name, registry, mode)
  throw new Error(`${name} is neither a model nor an enum`)
}

/** A `str` Enum: pydantic's `enum_schema` (title, enum, type; reordered later). */
function enumSchema(schema: z.ZodEnum, name: string): JsonSchema {
  return { title: name, enum: [...schema.options], type: 'string' }
}

/** A `BaseModel`: every field in shape order; `required` lists the fields without a default. */
function modelSchema(object: z.ZodObject, name: string, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const properties: JsonSchema = {}
  const required: string[] = []
  for (const [fieldName, field] of Object.entries(object.shape)) {
    const info = fieldInfo(field as z.ZodType)
    const schema = fieldSchema(info, registry, mode)
    if (titleShouldBeSet(info.inner)) schema['title'] = pythonTitle(fieldName).replaceAll('_', ' ').trim()
    properties[fieldName] = schema
    if (info.required) required.push(fieldName)
  }
  const model: JsonSchema = { properties }
  if (required.length > 0) model['required'] = required
  model['title'] = name
  model['type'] = 'object'
  return model
}

/** What a zod field says about the Python field it stands for. */
interface FieldInfo {
  /** The type under the optional/default/nullable wrappers. */
  readonly inner: z.ZodType
  readonly nullable: boolean
  /** No default and not optional: pydantic requires it. */
  readonly required: boolean
  /** A default pydantic would write (`None` and `default_factory` defaults are never written). */
  readonly default?: { value: unknown }
  readonly description?: string
}

/**
 * Peels `.optional()`, `.default()` and `.nullable()` in any order. An optional field is
 * `Optional[X] = None`. An object or array default stands for `Field(default_factory=...)`
 * (Python never shares a mutable literal), which pydantic leaves out of the schema.
 */
export function fieldInfo(field: z.ZodType): FieldInfo {
  let current = field
  let nullable = false
  let required = true
  let fieldDefault: { value: unknown } | undefined
  let description = field.description
  while (true) {
    description ??= current.description
    if (PYTHON_TYPES.has(current)) break
    if (current instanceof z.ZodOptional) required = false
    else if (current instanceof z.ZodNullable) nullable = true
    else if (current instanceof z.ZodDefault) {
      required = false
      const value: unknown = current._zod.def.defaultValue
      if (value !== null && typeof value !== 'object') fieldDefault = { value }
    } else break
    current = (current as z.ZodOptional | z.ZodNullable | z.ZodDefault).unwrap() as z.ZodType
  }
  return { inner: current, nullable, required, default: fieldDefault, description }
}

/** pydantic's field schema: the type (nullable → `anyOf` with null), then description, then default. */
export function fieldSchema(info: FieldInfo, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const typed = typeSchema(info.inner, registry, mode)
  const schema = info.nullable ? flattenedAnyOf([typed, { type: 'null' }]) : typed
  if (info.description) schema['description'] = info.description
  if (info.default) schema['default'] = info.default.value
  return schema
}

/** pydantic's `field_title_should_be_set`: models and enums (refs) get no field title. */
export function titleShouldBeSet(inner: z.ZodType): boolean {
  return !(inner instanceof z.ZodEnum || inner instanceof z.ZodObject)
}

/** The JSON Schema pydantic generates for the Python type a zod schema stands for, in pydantic's key order. */
export function typeSchema(schema: z.ZodType, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const python = PYTHON_TYPES.get(schema)
  if (python) return python()
  const named = modelName(schema)
  if (named !== undefined) return registry.reference(schema, named, mode)
  if (schema instanceof z.ZodObject || schema instanceof z.ZodEnum) {
    throw new Error('An unnamed zod object or enum has no component name: export it from model/')
  }
  return anonymousTypeSchema(schema, registry, mode)
}

function anonymousTypeSchema(schema: z.ZodType, registry: SchemaRegistry, mode: Mode): JsonSchema {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return typeSchema(schema.unwrap() as z.ZodType, registry, mode)
  }
  if (schema instanceof z.ZodNullable) {
    return flattenedAnyOf([typeSchema(schema.unwrap() as z.ZodType, registry, mode), { type: 'null' }])
  }
  if (schema instanceof z.ZodUnion) {
    return flattenedAnyOf(schema.options.map((option) => typeSchema(option as z.ZodType, registry, mode)))
  }
  if (schema instanceof z.ZodArray) {
    const items = typeSchema(schema.element as z.ZodType, registry, mode)
    return withConstraints({ type: 'array', items }, schema, ARRAY_KEYWORDS)
  }
  if (schema instanceof z.ZodRecord) return dictSchema(schema, registry, mode)
  return scalarSchema(schema)
}

/**
 * Scalars by zod's def type: format schemas such as `z.uuid()` are not `ZodString` instances, but
 * their def says `type: 'string'` and names the format.
 */
function scalarSchema(schema: z.ZodType): JsonSchema {
  const def = schema._zod.def as { type: string; format?: string }
  switch (def.type) {
    case 'string':
      if (def.format === 'uuid' || def.format === 'guid') return { type: 'string', format: 'uuid' }
      return withConstraints({ type: 'string' }, schema, STRING_KEYWORDS)
    case 'number':
      return withConstraints({ type: def.format?.includes('int') ? 'integer' : 'number' }, schema, NUMERIC_KEYWORDS)
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

/** `Dict[str, V]`; `Dict[str, Any]` is `additionalProperties: true` (pydantic ≥2.11). */
function dictSchema(schema: z.ZodRecord, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const values = typeSchema(schema.valueType as z.ZodType, registry, mode)
  delete values['title']
  return { type: 'object', additionalProperties: Object.keys(values).length > 0 ? values : true }
}

/** The pydantic constraints of zod's checks, in the order `update_with_validations` writes them. */
function withConstraints(base: JsonSchema, schema: z.ZodType, keywords: readonly string[]): JsonSchema {
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
function flattenedAnyOf(members: JsonSchema[]): JsonSchema {
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

/**
 * The class name of a model or enum (exported by model/, or titled there). A `.strict()` (or other)
 * variant of a named object has a new identity but the same fields: it is still that model (the mock
 * uses strictness to pick a union branch; the Python model is the same class).
 */
export function modelName(schema: z.ZodType): string | undefined {
  const direct = MODEL_NAMES.get(schema) ?? classTitle(schema)
  if (direct !== undefined || !(schema instanceof z.ZodObject)) return direct
  for (const [candidate, name] of MODEL_NAMES) if (sameShape(candidate, schema)) return name
  return undefined
}

/** A model built per profile (model/requests.ts) carries its class name as its zod `title`. */
const classTitle = (schema: z.ZodType): string | undefined =>
  schema instanceof z.ZodObject ? (z.globalRegistry.get(schema)?.title ?? undefined) : undefined

function sameShape(a: z.ZodType, b: z.ZodType): boolean {
  if (!(a instanceof z.ZodObject) || !(b instanceof z.ZodObject)) return false
  const keys = Object.keys(a.shape)
  return keys.length === Object.keys(b.shape).length && keys.every((key) => a.shape[key] === b.shape[key])
}

/** Python's `str.title()`: a cased letter is upper-cased after a non-letter, lower-cased after a letter. */
export function pythonTitle(text: string): string {
  let previousCased = false
  let titled = ''
  for (const char of text) {
    const cased = char.toLowerCase() !== char.toUpperCase()
    titled += cased ? (previousCased ? char.toLowerCase() : char.toUpperCase()) : char
    previousCased = cased
  }
  return titled
}
