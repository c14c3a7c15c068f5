import { z } from 'zod'
import { decodeJsonBody } from '../../fastapi/python/json-decode.js'
import { PyDict, PyFloat, type PyValue } from '../../fastapi/python/value.js'

/**
 * Integer fields of `schema` written as floats in `text` (`"created_at": 1700000000.0`): `JSON.parse` reads both
 * as the same number, so a schema check passes them, but a typed client (a Go `int64`, strict pydantic) refuses the
 * answer. The text is read as Python reads JSON, which keeps `1.0` a float; only the model's own integer fields
 * are looked at, never a free-form field's contents.
 * @returns `path: an integer written as 1700000000.0`, one line per field path (list indexes merged)
 */
export function integersWrittenAsFloats(text: string, schema: z.ZodType): string[] {
  const decoded = decodeJsonBody(new TextEncoder().encode(text))
  if (!decoded.ok) return []
  const found = new Map<string, string>()
  walk(schema, decoded.value, '', found)
  return [...found].map(([path, lexeme]) => `${path}: an integer written as ${lexeme}`)
}

function walk(schema: z.ZodType, value: PyValue, path: string, found: Map<string, string>): void {
  const inner =
    schema instanceof z.ZodNullable || schema instanceof z.ZodOptional || schema instanceof z.ZodDefault
      ? (schema.unwrap() as z.ZodType)
      : schema
  if (inner !== schema) walk(inner, value, path, found)
  else if (schema instanceof z.ZodNumber && schema.isInt) {
    if (value instanceof PyFloat && !found.has(path)) found.set(path, floatText(value.value))
  } else if (schema instanceof z.ZodArray && Array.isArray(value))
    for (const item of value) walk(schema.element as z.ZodType, item, `${path}[]`, found)
  else if (schema instanceof z.ZodObject && value instanceof PyDict)
    for (const [name, field] of Object.entries(schema.shape))
      if (value.has(name)) walk(field as z.ZodType, value.get(name) as PyValue, path ? `${path}.${name}` : name, found)
}

/** A float as Python writes a whole one: `1700000000.0`. */
const floatText = (value: number): string => (Number.isInteger(value) ? `${value}.0` : String(value))
