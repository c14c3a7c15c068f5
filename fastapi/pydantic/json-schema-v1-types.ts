import { z } from 'zod'
import type { JsonSchema } from './json-schema.js'

/** pydantic 1's schema of a field's bounds (its plain types are json-schema-scalars.ts's `plainScalarSchema`). */

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
