import type { z } from 'zod'
import type { Profile } from '../model/profile.js'
import { Timestamp } from '../model/schemas.js'
import { encodePythonJson, encodeScalar } from './fastapi/python-json-encode.js'
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

type Encoder = (value: unknown) => string

const encoders = new WeakMap<Schema, WeakMap<Profile, Encoder>>()
const remembered = new WeakMap<object, WeakMap<Encoder, Map<object, string>>>()

/**
 * Records whose JSON is kept, per schema and profile, in each world. The first this many
 * records written are kept and no others, so serving pages again costs nothing, memory
 * stays bounded, and a world with more records than this never churns: replacing kept
 * JSON would turn every request into garbage for the old generation.
 */
export const REMEMBERED_ENCODINGS = 20_000

/**
 * A record's wire JSON, `encodePythonJson(shapeResource(schema, record, profile))`, from an
 * encoder compiled once per schema and profile (the field names written out ahead, one
 * function per field). The JSON is remembered for the first {@link REMEMBERED_ENCODINGS}
 * records of `world` it is asked for: stored records are replaced, never changed in place,
 * so it cannot go stale, and it goes when the world does (a reset).
 */
export function encodeResource(schema: Schema, record: object, profile: Profile, world: object): string {
  const encode = encoderFor(schema, profile)
  let byEncoder = remembered.get(world)
  if (!byEncoder) remembered.set(world, (byEncoder = new WeakMap()))
  let kept = byEncoder.get(encode)
  if (!kept) byEncoder.set(encode, (kept = new Map()))
  let json = kept.get(record)
  if (json === undefined) {
    json = encode(record)
    if (kept.size < REMEMBERED_ENCODINGS) kept.set(record, json)
  }
  return json
}

function encoderFor(schema: Schema, profile: Profile): Encoder {
  let bySchema = encoders.get(schema)
  if (!bySchema) encoders.set(schema, (bySchema = new WeakMap()))
  let encode = bySchema.get(profile)
  if (!encode) bySchema.set(profile, (encode = compileEncoder(schema, profile)))
  return encode
}

/** Mirrors {@link shapeResource} case by case, writing JSON instead of shaping a value. */
function compileEncoder(schema: Schema, profile: Profile): Encoder {
  const nullable = (encode: Encoder): Encoder => (value) => (value === null || value === undefined ? 'null' : encode(value))
  if (schema === Timestamp) return nullable(profile.timestampUnit === 'ms' ? (value) => encodeScalar((value as number) * 1000) : encodeScalar)
  const def = schema._zod.def as unknown as Def
  switch (def.type) {
    case 'default':
    case 'nullable':
    case 'optional':
      return nullable(compileEncoder(def.innerType as Schema, profile))
    case 'object':
      return nullable(compileObjectEncoder(def.shape as Record<string, Schema>, profile))
    case 'array': {
      const encodeItem = compileEncoder(def.element as Schema, profile)
      return nullable((value) => `[${(value as unknown[]).map((item) => encodeItem(item)).join(',')}]`)
    }
    case 'number':
      return nullable((schema as unknown as { isInt: boolean }).isInt ? encodeScalar : (value) => encodeScalar(new PyFloat(value as number)))
    default:
      return nullable(encodePythonJson)
  }
}

function compileObjectEncoder(shape: Record<string, Schema>, profile: Profile): Encoder {
  const fields = Object.keys(shape).map((key, index) => ({
    key,
    prefix: `${index === 0 ? '{' : ','}${JSON.stringify(key)}:`,
    encode: compileEncoder(shape[key] as Schema, profile),
  }))
  if (fields.length === 0) return () => '{}'
  return (value) => {
    const record = value as Record<string, unknown>
    const parts: string[] = []
    for (const field of fields) parts.push(field.prefix, field.encode(record[field.key]))
    parts.push('}')
    // One flat string: `+=` would leave a rope that every page joining it walks again.
    return parts.join('')
  }
}
