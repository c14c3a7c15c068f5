import { z } from 'zod'
import { Uuid } from '../../model/schemas.js'

/**
 * An id the contract takes: RFC 4122 reads hex digits in either case, so an upper-case id is a UUID (a server
 * whose database writes them so keeps the contract). The mock writes lower case, as pydantic does: the exact pass
 * warns of the other spelling.
 */
const ANY_CASE_UUID = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
  message: 'not a hyphenated UUID',
})

/**
 * The project's record schemas carry defaults, because the mock builds records from them: a
 * persona without a `description` parses as `null`. On the wire every field must be present
 * (`decisions.md`: FastAPI writes `None` as `null`), so the verifier reads the same schemas
 * with every default taken off. `strict` also refuses unknown keys, which the verifier turns
 * into warnings, never failures.
 * @example wireSchema(Persona, { strict: false }).safeParse(record)
 */
export function wireSchema(schema: z.ZodType, options: { strict: boolean }): z.ZodType {
  if (schema === Uuid) return options.strict ? Uuid : ANY_CASE_UUID
  if (schema instanceof z.ZodDefault) return wireSchema(schema.unwrap() as z.ZodType, options)
  if (schema instanceof z.ZodNullable) return wireSchema(schema.unwrap() as z.ZodType, options).nullable()
  if (schema instanceof z.ZodOptional) return wireSchema(schema.unwrap() as z.ZodType, options).optional()
  if (schema instanceof z.ZodArray) return z.array(wireSchema(schema.element as z.ZodType, options))
  if (schema instanceof z.ZodUnion) {
    const options_ = schema.options.map((option) => wireSchema(option as z.ZodType, options))
    return z.union(options_ as [z.ZodType, z.ZodType, ...z.ZodType[]])
  }
  if (schema instanceof z.ZodObject && !isFreeForm(schema)) return wireObject(schema, options)
  return schema
}

function wireObject(schema: z.ZodObject, options: { strict: boolean }): z.ZodType {
  const shape = wireShape(schema, options)
  return options.strict ? z.strictObject(shape) : z.object(shape)
}

/** The fields of a model, each read as the wire carries it: to build a variant with some fields replaced. */
export function wireShape(schema: z.ZodObject, options: { strict: boolean }): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {}
  for (const [name, field] of Object.entries(schema.shape)) shape[name] = wireSchema(field as z.ZodType, options)
  return shape
}

/** An object with a catchall (none in the model today) is free-form: left as it is. */
function isFreeForm(schema: z.ZodObject): boolean {
  return schema._zod.def.catchall !== undefined && !(schema._zod.def.catchall instanceof z.ZodNever)
}
