import { z } from 'zod'
import {
  ARRAY_KEYWORDS,
  flattenedAnyOf,
  isPythonType,
  pythonTypeSchema,
  scalarSchema,
  withConstraints,
} from './json-schema-scalars.js'
import { modelName, pythonTitle, sameShape } from './model-names.js'
import type { JsonSchema } from './schema-object.js'

export { isJsonObject, type JsonSchema } from './schema-object.js'

/**
 * The JSON Schema pydantic generates for the Python types the zod schemas stand for (models,
 * enums, fields, constraints), collected as FastAPI collects component definitions.
 */

export type Mode = 'validation' | 'serialization'

export const REF_PREFIX = '#/components/schemas/'

/** FastAPI's own 422 component schemas, as emitted up to 0.128.0 (0.128.1 added `input` and `ctx`). */
const VALIDATION_ERROR: JsonSchema = {
  title: 'ValidationError',
  type: 'object',
  properties: {
    loc: { title: 'Location', type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    msg: { title: 'Message', type: 'string' },
    type: { title: 'Error Type', type: 'string' },
  },
  required: ['loc', 'msg', 'type'],
}
const HTTP_VALIDATION_ERROR: JsonSchema = {
  title: 'HTTPValidationError',
  type: 'object',
  properties: { detail: { title: 'Detail', type: 'array', items: { $ref: `${REF_PREFIX}ValidationError` } } },
}

/** Adds FastAPI's own 422 schemas, the same in 0.92 as later, to `definitions`; gives the 422 body's `$ref`. */
export function addValidationErrorSchemas(definitions: Map<string, JsonSchema>): JsonSchema {
  definitions.set('HTTPValidationError', HTTP_VALIDATION_ERROR)
  definitions.set('ValidationError', VALIDATION_ERROR)
  return { $ref: `${REF_PREFIX}HTTPValidationError` }
}

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
    return addValidationErrorSchemas(this.#definitions)
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
    if (isPythonType(current)) break
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
function titleShouldBeSet(inner: z.ZodType): boolean {
  return !(inner instanceof z.ZodEnum || inner instanceof z.ZodObject)
}

/** The JSON Schema pydantic generates for the Python type a zod schema stands for, in pydantic's key order. */
export function typeSchema(schema: z.ZodType, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const python = pythonTypeSchema(schema)
  if (python) return python
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

/** `Dict[str, V]`; `Dict[str, Any]` is `additionalProperties: true` (pydantic ≥2.11). */
function dictSchema(schema: z.ZodRecord, registry: SchemaRegistry, mode: Mode): JsonSchema {
  const values = typeSchema(schema.valueType as z.ZodType, registry, mode)
  delete values['title']
  return { type: 'object', additionalProperties: Object.keys(values).length > 0 ? values : true }
}
