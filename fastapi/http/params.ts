import type { z } from 'zod'
import { validateInput, type DialectSettings, type ValidationIssue } from '../pydantic/dialect.js'
import { MISSING, type Input } from '../pydantic/validate.js'
import { validationError } from './responses.js'

type ObjectSchema = z.ZodObject<z.ZodRawShape>

/** One group of endpoint parameters: where they come from and how to read one by name. */
export interface ParamSource {
  source: 'path' | 'query'
  schema: ObjectSchema
  read: (name: string, isList: boolean) => Input
}

/**
 * Validates the endpoint's parameters as FastAPI does: every group (path, then query), each
 * in signature order, all errors collected.
 * @returns the validated values of every group, merged, and the errors in FastAPI's order.
 */
export function validateParams(groups: readonly ParamSource[], settings: DialectSettings) {
  const values: Record<string, unknown> = {}
  const errors: ValidationIssue[] = []
  for (const { source, schema, read } of groups) {
    for (const [name, field] of Object.entries(schema.shape)) {
      const outcome = validateInput(field, read(name, isListField(field)), [source, name], settings)
      if (outcome.ok) values[name] = outcome.value
      else errors.push(...outcome.errors)
    }
  }
  return { values, errors }
}

/** Answers 422 with every error collected, if there is any. */
export function throwIfInvalid(errors: readonly ValidationIssue[]): void {
  if (errors.length) throw validationError(errors)
}

/** A `List[...]` parameter reads every repeated value (`getlist`); a scalar reads the last one. */
function isListField(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType }
  if (def.type === 'array') return true
  return def.innerType ? isListField(def.innerType) : false
}

/** Reads query parameters the way Starlette's `QueryParams` does: absent is MISSING. */
export const queryReader =
  (query: { get(name: string): string | undefined; getAll(name: string): string[] }) =>
  (name: string, isList: boolean): Input => {
    if (isList) {
      const all = query.getAll(name)
      return all.length ? all : MISSING
    }
    return query.get(name) ?? MISSING
  }

export const pathReader =
  (params: Record<string, string>) =>
  (name: string): Input =>
    params[name] ?? MISSING
