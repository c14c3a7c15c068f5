import { AUTH_AND_ERRORS } from './variants/auth-errors.js'
import { BULK_AND_DRIFT } from './variants/bulk-drift.js'
import { FILTERS } from './variants/filters.js'
import type { BrokenVariant } from './variants/helpers.js'
import { SCHEMA_AND_PAGING } from './variants/schema-paging.js'
import { VALIDATION } from './variants/validation.js'

export type { BrokenVariant }

/** The broken variants of what the server answers: the schema, paging and filter checks. */
export const BROKEN_ANSWERS: BrokenVariant[] = [...SCHEMA_AND_PAGING, ...FILTERS]
/** The broken variants of what the server takes: the validation, auth, error and bulk write checks. */
export const BROKEN_REQUESTS: BrokenVariant[] = [...VALIDATION, ...AUTH_AND_ERRORS, ...BULK_AND_DRIFT]

/** Every broken variant of the mock (test/contract/variants/), each a realistic contract bug. */
export const BROKEN_VARIANTS: BrokenVariant[] = [...BROKEN_ANSWERS, ...BROKEN_REQUESTS]
