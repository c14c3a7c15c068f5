import type { z } from 'zod'
import { pydanticError, type Loc, type PydanticError } from './errors.js'
import { v1Error, v1JsonDecodeError, type PydanticV1Error } from './v1-errors.js'
import { nonFiniteV1 } from './v1-unwritable.js'
import { validateV1 } from './v1-validate.js'
import { validatePython, type Input } from './validate.js'
import { PyDict, type PyValue } from '../python/value.js'

/**
 * The one switch between the pydantic generations the mock speaks (profile setting `pydantic`): pydantic 2
 * (`validate.ts`, `errors.ts`) as FastAPI ≥0.100 uses it, or pydantic 1 (`v1-*.ts`) as FastAPI 0.92 does.
 * FastAPI's code (params, body) asks this module, never one generation directly.
 */
export interface DialectSettings {
  pydantic: '1' | '2.12' | '2.13'
}

/** One entry of a 422 `detail`, in either generation's shape. */
export type ValidationIssue = PydanticError | PydanticV1Error

export type Outcome = { ok: true; value: unknown } | { ok: false; errors: ValidationIssue[] }

/**
 * Validates one parameter, or the body, as the profile's pydantic does.
 * @param missingInput what a pydantic 2 `missing` error echoes (pydantic 1 echoes nothing).
 */
export function validateInput(
  schema: z.core.$ZodType,
  input: Input,
  loc: Loc,
  settings: DialectSettings,
  missingInput?: PyValue,
): Outcome {
  const { pydantic } = settings
  return pydantic === '1'
    ? validateV1(schema, input, loc)
    : validatePython(schema, input, loc, { pydantic }, missingInput)
}

/**
 * Errors for values FastAPI could take but not write back (NaN, infinities): pydantic 2 reports them while
 * validating (its 422 would echo them); for pydantic 1 they are checked once the request would succeed.
 */
export const unwritableValues = (settings: DialectSettings, value: unknown, loc: Loc): ValidationIssue[] =>
  settings.pydantic === '1' ? nonFiniteV1(value, loc) : []

/** FastAPI's error for a required body that is absent (or JSON `null`). */
export const missingBody = (settings: DialectSettings): ValidationIssue =>
  settings.pydantic === '1' ? v1Error('value_error.missing', ['body']) : pydanticError('missing', ['body'], null)

/**
 * FastAPI's 422 entry for a body `json.loads` refuses. FastAPI ≥0.100 writes its own `json_invalid`
 * dict; 0.92 wraps the `JSONDecodeError`, whose context holds the whole decoded body.
 * @param doc the decoded body as code points; `pos` indexes them.
 */
export function jsonDecodeIssue(
  settings: DialectSettings,
  msg: string,
  pos: number,
  doc: () => { points: Uint32Array; text: string },
): ValidationIssue {
  if (settings.pydantic !== '1')
    return {
      type: 'json_invalid',
      loc: ['body', pos],
      msg: 'JSON decode error',
      input: new PyDict(),
      ctx: { error: msg },
    }
  const { points, text } = doc()
  return v1JsonDecodeError(msg, points, text, pos)
}
