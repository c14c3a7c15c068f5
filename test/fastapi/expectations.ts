import type { ProfileFile } from '../../verify/index.js'

/**
 * What verify must find against each variant of the reference app (app.py's VARIANTS table): the profile a
 * legitimate variant writes. The coding styles, which change no setting, are tested together in corpus.ts.
 */

/** The clean app: FastAPI 0.92 (403 without a token), pydantic 1, the description's bounds. */
export const CLEAN_PROFILE: ProfileFile = {
  missingCredentialsStatus: 403,
  bulkAddStatus: 201,
  bulkDuplicates: 'skip',
  timestampUnit: 's',
  rulesPaging: { limit: 'limit', offset: 'offset', defaultLimit: 100 },
  pydantic: '1',
  errorTexts: {
    notAuthenticated: 'Not authenticated',
    invalidToken: 'Could not validate credentials',
    missingPermission: 'Missing permission: {permission}',
    teamForbidden: 'Not authorized for this team',
    superAdminRequired: 'Super admin permission required',
    policyNotFound: 'Policy not found',
    dimensionNotFound: 'Dimension not found',
    teamRequired: 'team_id is required',
  },
  intents: 'string',
  bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: 1000, valueMaxLength: 255 },
  declaredErrors: {},
}

const clean = (changes: Partial<ProfileFile>): ProfileFile => ({ ...CLEAN_PROFILE, ...changes })
const { declaredErrors: _, ...withoutDocument } = CLEAN_PROFILE

export interface LegitShows {
  variant: string
  /** The whole profile written: the clean app's, with the variant's setting. */
  settings: ProfileFile
  /** What the report observes where the mock has no setting. */
  observations?: Record<string, RegExp>
  /** A warning the report gives (reported, never failed). */
  warning?: RegExp
}

export const LEGIT_SHOWS: LegitShows[] = [
  {
    variant: 'legit:missing-credentials-401',
    settings: clean({ missingCredentialsStatus: 401 }),
    observations: { fastapi: /≥0\.122/ },
  },
  { variant: 'legit:bulk-200', settings: clean({ bulkAddStatus: 200 }) },
  { variant: 'legit:bulk-202', settings: clean({ bulkAddStatus: 202 }) },
  {
    variant: 'legit:rules-any-team',
    settings: CLEAN_PROFILE,
    warning: /answered 200: the server lists the rules of another team's policy; the mock answers 404/,
  },
  {
    variant: 'legit:bulk-reject-duplicates',
    settings: clean({
      bulkDuplicates: 'reject',
      errorTexts: { ...CLEAN_PROFILE.errorTexts, duplicateValues: 'Duplicate values: {values}' },
    }),
  },
  { variant: 'legit:duplicates-stored', settings: clean({ bulkDuplicates: 'store' }) },
  { variant: 'legit:timestamps-ms', settings: clean({ timestampUnit: 'ms' }) },
  {
    variant: 'legit:rules-page-size-skip',
    settings: clean({ rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 } }),
  },
  {
    variant: 'legit:rules-newest-first',
    settings: CLEAN_PROFILE,
    observations: { 'rules order': /^created_at descending, then rule_id ascending$/ },
  },
  {
    variant: 'legit:personas-by-name',
    settings: CLEAN_PROFILE,
    observations: { 'personas order': /^name ascending$/ },
  },
  {
    variant: 'legit:declared-errors',
    settings: clean({
      declaredErrors: {
        list_personas: [400, 401, 403],
        bulk_add_values: [401, 403, 404, 409],
        list_policy_rules: [401, 403, 404],
      },
    }),
  },
  {
    variant: 'legit:no-length-bounds',
    settings: clean({
      bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: null, valueMaxLength: null },
    }),
    warning: /bulkMaxItems: no bound \(the mock has one\): more lenient than the mock/,
  },
  { variant: 'legit:intents-enum', settings: clean({ intents: 'enum' }) },
  {
    variant: 'legit:strict-strings',
    settings: CLEAN_PROFILE,
    observations: { 'a number sent for a string': /^refused with 422$/ },
  },
  {
    variant: 'legit:bulk-fields-required',
    settings: CLEAN_PROFILE,
    observations: { 'bulk item fields': /^value, display_name, metadata, sort_order required/ },
    warning: /a frontend that sends only value, as the mock allows, gets 422 here/,
  },
  {
    variant: 'legit:sort-order-zero',
    settings: CLEAN_PROFILE,
    observations: { 'bulk defaults': /sort_order 0, then 0/ },
  },
  {
    variant: 'legit:other-team-404',
    settings: clean({ errorTexts: { ...CLEAN_PROFILE.errorTexts, teamForbidden: 'Team not found' } }),
    observations: { "another team's personas": /^answered 404, not 403$/ },
  },
  {
    variant: 'legit:team-id-required',
    settings: CLEAN_PROFILE,
    observations: { 'team_id omitted': /^400 "team_id is required"$/ },
  },
  {
    variant: 'legit:no-openapi',
    settings: withoutDocument,
    observations: { 'a number sent for a string': /pydantic 1/ },
  },
  {
    variant: 'legit:personas-oldest-first',
    settings: CLEAN_PROFILE,
    observations: { 'personas order': /^created_at ascending, then id ascending$/ },
  },
  {
    variant: 'legit:bearer-optional-401',
    settings: clean({
      missingCredentialsStatus: 401,
      errorTexts: { ...CLEAN_PROFILE.errorTexts, notAuthenticated: 'Missing bearer token' },
    }),
  },
  {
    variant: 'legit:extra-fields',
    settings: CLEAN_PROFILE,
    warning: /results\[\]\.avatar_url: unknown field[\s\S]*results\[\]\.version: unknown field/,
  },
]
