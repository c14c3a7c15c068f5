import { PyDict, PyFloat } from '../python/value.js'
import type { Loc } from './errors.js'
import { v1Error, type PydanticV1Error } from './v1-errors.js'

/**
 * NaN and infinities in a validated value (say, in `metadata`). pydantic 1 takes them, and a 422 never
 * echoes them, but FastAPI would store them and then fail to write its answer (500): the mock refuses the
 * request with these errors instead, once it would otherwise succeed (`decisions.md`, deliberate differences).
 */
export function nonFiniteV1(value: unknown, loc: Loc): PydanticV1Error[] {
  if (value instanceof PyFloat)
    return Number.isFinite(value.value) ? [] : [v1Error('value_error.number.not_finite_number', loc)]
  if (Array.isArray(value)) return value.flatMap((item, index) => nonFiniteV1(item, [...loc, index]))
  const entries = value instanceof PyDict ? [...value] : isPlainObject(value) ? Object.entries(value) : []
  return entries.flatMap(([key, item]) => nonFiniteV1(item, [...loc, key]))
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
