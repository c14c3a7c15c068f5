import { z } from 'zod'
import * as enums from '../../model/enums.js'
import * as requests from '../../model/requests.js'
import * as schemas from '../../model/schemas.js'

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

export function sameShape(a: z.ZodType, b: z.ZodType): boolean {
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
