import type { z } from 'zod'
import type { PydanticError } from './errors.js'

export interface ValidationSettings {
  /** The pydantic version, for the UUID message (profile setting). */
  pydantic: '2.12' | '2.13'
}

/** What validating one value gives: its Python value, or the errors (never both). */
export type Outcome = { ok: true; value: unknown } | { ok: false; errors: PydanticError[] }

export const ok = (value: unknown): Outcome => ({ ok: true, value })
export const fail = (...errors: PydanticError[]): Outcome => ({ ok: false, errors })

export type Schema = z.core.$ZodType
export type Def = Schema['_zod']['def'] & Record<string, unknown>
