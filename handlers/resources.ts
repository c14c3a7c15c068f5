import type { z } from 'zod'
import type { Profile } from '../model/profile.js'
import { Timestamp } from '../model/schemas.js'
import { encodePythonJson } from './fastapi/python-json-encode.js'
import { PyFloat } from './fastapi/python-value.js'

type Schema = z.core.$ZodType
type Def = { type: string; innerType?: Schema; shape?: Record<string, Schema>; element?: Schema }

/**
 * Shapes a stored record for the wire through its schema, as FastAPI's `response_model`
 * does: fields in the schema's order, every field present (`null` where empty), floats
 * written as floats (`1.0`), and timestamps in the profile's unit.
 * @example shapeResource(Persona, record, profile)
 */
export function shapeResource(schema: Schema, value: unknown, profile: Profile): unknown {
  if (value === null || value === undefined) return null
  if (schema === Timestamp) return profile.timestampUnit === 'ms' ? (value as number) * 1000 : value
  const def = schema._zod.def as unknown as Def
  switch (def.type) {
    case 'default':
    case 'nullable':
    case 'optional':
      return shapeResource(def.innerType as Schema, value, profile)
    case 'object':
      return shapeObject(def.shape as Record<string, Schema>, value as Record<string, unknown>, profile)
    case 'array':
      return (value as unknown[]).map((item) => shapeResource(def.element as Schema, item, profile))
    case 'number':
      return (schema as unknown as { isInt: boolean }).isInt ? value : new PyFloat(value as number)
    default:
      return value
  }
}

function shapeObject(shape: Record<string, Schema>, record: Record<string, unknown>, profile: Profile) {
  const out: Record<string, unknown> = {}
  for (const key in shape) out[key] = shapeResource(shape[key] as Schema, record[key], profile)
  return out
}

const encoded = new WeakMap<Schema, WeakMap<Profile, WeakMap<object, string>>>()

/**
 * A record's wire JSON, written once and remembered for as long as the record lives
 * (stored records are replaced, never changed in place, so the text cannot go stale).
 */
export function encodeResource(schema: Schema, record: object, profile: Profile): string {
  let bySchema = encoded.get(schema)
  if (!bySchema) encoded.set(schema, (bySchema = new WeakMap()))
  let byRecord = bySchema.get(profile)
  if (!byRecord) bySchema.set(profile, (byRecord = new WeakMap()))
  let json = byRecord.get(record)
  if (json === undefined) byRecord.set(record, (json = encodePythonJson(shapeResource(schema, record, profile))))
  return json
}
