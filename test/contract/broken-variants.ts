import { AUTH_AND_ERRORS } from './variants/auth-errors.js'
import { BULK_AND_DRIFT } from './variants/bulk-drift.js'
import { FILTERS } from './variants/filters.js'
import type { BrokenVariant } from './variants/helpers.js'
import { SCHEMA_AND_PAGING } from './variants/schema-paging.js'
import { VALIDATION } from './variants/validation.js'

export type { BrokenVariant }

/** Every broken variant of the mock (test/contract/variants/), each a realistic contract bug. */
export const BROKEN_VARIANTS: BrokenVariant[] = [
  ...SCHEMA_AND_PAGING,
  ...FILTERS,
  ...VALIDATION,
  ...AUTH_AND_ERRORS,
  ...BULK_AND_DRIFT,
]
