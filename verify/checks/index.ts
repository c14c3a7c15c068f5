import type { Check } from './check.js'
import { authChecks } from './auth.js'
import { bulkChecks } from './bulk.js'
import { driftChecks } from './drift.js'
import { errorChecks } from './errors.js'
import { filterChecks } from './filters.js'
import { filteredPagingCheck } from './filters-paged.js'
import { pagingChecks } from './paging.js'
import { profileChecks } from './profile.js'
import { generationChecks } from './profile-generation.js'
import { learnedChecks } from './profile-learned.js'
import { rulesPagingChecks } from './rules-paging.js'
import { schemaChecks } from './schema.js'
import { validationChecks } from './validation.js'

/**
 * Every check, in the order a run takes them: the profile checks read what the others saw
 * (statuses, messages, writes), and drift compares documents for the profile they detected.
 * Only `contract` checks can fail; the profile checks (`dialect`, `choice`) report.
 */
export const ALL_CHECKS: readonly Check[] = [
  ...schemaChecks,
  ...pagingChecks,
  ...rulesPagingChecks,
  ...filterChecks,
  filteredPagingCheck,
  ...validationChecks,
  ...authChecks,
  ...errorChecks,
  ...bulkChecks,
  ...profileChecks,
  ...generationChecks,
  ...learnedChecks,
  ...driftChecks,
]
