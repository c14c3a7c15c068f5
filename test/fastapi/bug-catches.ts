/** The checks verify must fail against each planted bug of the reference app (app.py's VARIANTS table), and no other. */

export interface BugCatch {
  variant: string
  caughtBy: string
  /** Other checks the same bug breaks. */
  alsoFails?: string[]
}

export const BUG_CATCHES: BugCatch[] = [
  {
    variant: 'bug:total-ignores-filters',
    caughtBy: 'filters.intents',
    alsoFails: ['filters.is-preset', 'filters.search-fields', 'filters.combined', 'filters.paged'],
  },
  { variant: 'bug:leak-other-team-presets', caughtBy: 'filters.team-scope' },
  {
    variant: 'bug:offset-ignored',
    caughtBy: 'paging.concatenation',
    alsoFails: ['paging.limit-respected', 'paging.past-end', 'filters.paged'],
  },
  // A token without permissions, and another team's policy, are then answered too: warnings (see auth.ts).
  { variant: 'bug:rules-no-auth', caughtBy: 'auth.no-token' },
  { variant: 'bug:bulk-not-atomic', caughtBy: 'bulk.all-or-nothing' },
  { variant: 'bug:persona-missing-field', caughtBy: 'schema.persona-list', alsoFails: ['drift.responses'] },
  { variant: 'bug:string-timestamps', caughtBy: 'schema.persona-list', alsoFails: ['drift.responses'] },
  { variant: 'bug:intents-ignored', caughtBy: 'filters.intents', alsoFails: ['filters.combined'] },
  { variant: 'bug:search-skips-role', caughtBy: 'filters.search-fields' },
  { variant: 'bug:bulk-no-admin', caughtBy: 'auth.bulk-requires-admin' },
  { variant: 'bug:signature-not-verified', caughtBy: 'auth.malformed-token' },
  { variant: 'bug:limit-no-maximum', caughtBy: 'validation.limit-range' },
  { variant: 'bug:unknown-policy-empty', caughtBy: 'errors.unknown-policy' },
  { variant: 'bug:duplicates-within-request', caughtBy: 'bulk.duplicates' },
  { variant: 'bug:rules-total-page', caughtBy: 'paging.rules-concatenation', alsoFails: ['paging.rules-past-end'] },
  { variant: 'bug:model-used-null', caughtBy: 'schema.rule-list' },
]
