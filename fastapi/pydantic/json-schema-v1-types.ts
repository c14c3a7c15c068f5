import { z } from 'zod'
import type { JsonSchema } from './json-schema.js'

/** pydantic 1's schemas of the plain types (`field_class_to_schema`) and of a field's bounds. */

export function scalarSchema(type: z.ZodType): JsonSchema {
  const def = type._zod.def as { type: string; format?: string }
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

type CheckDef = { check: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number }

/** `get_field_schema_validations` and `conlist`'s `__modify_schema__`: the bounds written on the field. */
export function constraintsOf(type: z.ZodType): JsonSchema {
  const found: JsonSchema = {}
  const lengths = type instanceof z.ZodArray ? ['minItems', 'maxItems'] : ['minLength', 'maxLength']
  for (const {
    _zod: { def },
  } of (type._zod.def.checks ?? []) as Array<{ _zod: { def: CheckDef } }>) {
    if (def.check === 'greater_than') found[def.inclusive ? 'minimum' : 'exclusiveMinimum'] = def.value
    else if (def.check === 'less_than') found[def.inclusive ? 'maximum' : 'exclusiveMaximum'] = def.value
    else if (def.check === 'min_length') found[lengths[0]!] = def.minimum
    else if (def.check === 'max_length') found[lengths[1]!] = def.maximum
  }
  return found
}
