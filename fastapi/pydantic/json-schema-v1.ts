import { z } from 'zod'
import { constraintsOf } from './json-schema-v1-types.js'
import { addValidationErrorSchemas, fieldInfo, REF_PREFIX, type JsonSchema } from './json-schema.js'
import { plainScalarSchema, pythonTypeSchema } from './json-schema-scalars.js'
import { modelName, pythonTitle } from './model-names.js'

/**
 * The JSON Schema pydantic 1.10 generates (`pydantic/schema.py`) for the Python types the zod schemas stand
 * for, as FastAPI 0.92 collects it: `Optional[X]` is plain `X`, a field that sets anything beside its type
 * (default, description, constraints) refers to a model or enum through `allOf`, enums are described
 * "An enumeration.", a model that forbids extra fields says `additionalProperties: false`. Key order is left
 * to the document, which rewrites every schema in FastAPI's `Schema` field order.
 */

type Field = ReturnType<typeof fieldInfo>

/** The component definitions reached while describing the routes, keyed by Python class name. */
export class SchemaRegistryV1 {
  readonly #definitions = new Map<string, JsonSchema>()

  /** A `$ref` to the model or enum's component (in `allOf` when the field overrides), describing it on first use. */
  reference(schema: z.ZodType, overrides: boolean): JsonSchema {
    const name = modelName(schema)
    if (name === undefined)
      throw new Error('An unnamed zod object or enum has no component name: export it from model/')
    if (!this.#definitions.has(name)) {
      this.#definitions.set(name, {})
      this.#definitions.set(
        name,
        schema instanceof z.ZodEnum ? enumSchema(schema, name) : modelSchema(schema as z.ZodObject, name, this),
      )
    }
    const ref = { $ref: `${REF_PREFIX}${name}` }
    return overrides ? { allOf: [ref] } : ref
  }

  /** The 422 response refers to FastAPI's own error schemas: adds them, gives the `$ref`. */
  useValidationError(): JsonSchema {
    return addValidationErrorSchemas(this.#definitions)
  }

  definitions(): ReadonlyMap<string, JsonSchema> {
    return this.#definitions
  }
}

/** `enum_process_schema`: Python gives every Enum without a docstring the description "An enumeration.". */
const enumSchema = (schema: z.ZodEnum, name: string): JsonSchema => ({
  title: name,
  description: 'An enumeration.',
  enum: [...schema.options],
  type: 'string',
})

/** `model_process_schema`: every field by name; `extra = "forbid"` (a `.strict()` zod object) closes it. */
function modelSchema(object: z.ZodObject, name: string, registry: SchemaRegistryV1): JsonSchema {
  const properties: JsonSchema = {}
  const required: string[] = []
  for (const [fieldName, field] of Object.entries(object.shape)) {
    properties[fieldName] = fieldSchemaV1(fieldName, field as z.ZodType, registry)
    const info = fieldInfo(field as z.ZodType)
    if (info.required && !info.nullable) required.push(fieldName)
  }
  const model: JsonSchema = { title: name, type: 'object', properties }
  if (required.length > 0) model['required'] = required
  if ((object._zod.def.catchall?._zod.def.type ?? '') === 'never') model['additionalProperties'] = false
  return model
}

/**
 * pydantic 1's `field_schema`: a title from the alias (not for an enum, nor a list of one), the
 * description, a default that is not `None` and the constraints, then the type; a bare `$ref` drops the rest.
 * @example fieldSchemaV1('limit', z.int().min(1).max(100).default(10), registry) // title, maximum, minimum, type, default
 */
export function fieldSchemaV1(alias: string, zodField: z.ZodType, registry: SchemaRegistryV1): JsonSchema {
  const field = fieldInfo(zodField)
  const schema: JsonSchema = {}
  if (!(itemType(field.inner) instanceof z.ZodEnum)) schema['title'] = pythonTitle(alias).replaceAll('_', ' ')
  const { own, overrides } = fieldOwnSchema(field)
  // A project schema standing for a plain Python type (a non-negative `Timestamp` is an `int`) has no bounds.
  const bounded = !(itemType(field.inner) instanceof z.ZodEnum) && pythonTypeSchema(field.inner) === undefined
  const constraints = bounded ? constraintsOf(field.inner) : {}
  const typed = fieldTypeSchema(field, overrides || Object.keys(constraints).length > 0, registry)
  return '$ref' in typed ? typed : { ...schema, ...own, ...constraints, ...typed }
}

/** `get_field_info_schema` without the title: what the field itself sets, and whether it sets anything. */
function fieldOwnSchema(field: Field): { own: JsonSchema; overrides: boolean } {
  const own: JsonSchema = {}
  if (field.description) own['description'] = field.description
  if (field.default) own['default'] = field.default.value
  return { own, overrides: Object.keys(own).length > 0 }
}

/** pydantic 1's `field.type_`: a list's item type, else the type itself. */
const itemType = (inner: z.ZodType): z.ZodType =>
  inner instanceof z.ZodArray ? fieldInfo(inner.element as z.ZodType).inner : inner

/** `field_type_schema`: lists and dicts by shape, anything else as a singleton. */
function fieldTypeSchema(field: Field, overrides: boolean, registry: SchemaRegistryV1): JsonSchema {
  const { inner } = field
  if (inner instanceof z.ZodArray) {
    // The item schema is the list field's own singleton schema: an enum item carries the field's description and default.
    const element = fieldInfo(inner.element as z.ZodType).inner
    const items =
      element instanceof z.ZodEnum ? enumField(field, false, registry) : singletonSchema(element, false, registry)
    return { type: 'array', items }
  }
  if (inner instanceof z.ZodRecord) {
    const values = singletonSchema(fieldInfo(inner.valueType as z.ZodType).inner, false, registry)
    return Object.keys(values).length > 0 ? { type: 'object', additionalProperties: values } : { type: 'object' }
  }
  if (inner instanceof z.ZodEnum) return enumField(field, overrides, registry)
  return singletonSchema(inner, overrides, registry)
}

/** The enum branch of `field_singleton_schema`: the field's description and default, and the (maybe `allOf`) ref. */
function enumField(field: Field, overrides: boolean, registry: SchemaRegistryV1): JsonSchema {
  const { own, overrides: sets } = fieldOwnSchema(field)
  return { ...own, ...registry.reference(itemType(field.inner), overrides || sets) }
}

/** `field_singleton_schema` for a type: a union as `anyOf` (an `allOf` member unwrapped), a model as a ref, scalars. */
function singletonSchema(type: z.ZodType, overrides: boolean, registry: SchemaRegistryV1): JsonSchema {
  const python = pythonTypeSchema(type)
  if (python) return python['type'] === 'object' ? { type: 'object' } : python
  if (type instanceof z.ZodUnion) {
    const members = (type.options as z.ZodType[]).map((option) =>
      fieldTypeSchema(fieldInfo(option), overrides, registry),
    )
    return {
      anyOf: members.map((member) =>
        overrides && Array.isArray(member['allOf']) ? (member['allOf'][0] as JsonSchema) : member,
      ),
    }
  }
  if (type instanceof z.ZodObject || type instanceof z.ZodEnum) return registry.reference(type, overrides)
  return plainScalarSchema(type)
}
