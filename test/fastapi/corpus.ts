import type { ProfileOptions } from '../../model/profile.js'
import type { ProfileFile } from '../../verify/index.js'
import { CLEAN_PROFILE } from './expectations.js'

/**
 * The verifier's regression suite of correct servers: each is the reference app (app.py) written in the styles
 * of one team, by a set of its `legit:` variants, or the mock as a pydantic 2 FastAPI server. verify must exit 0
 * against every one, and show its choices in the profile it writes.
 */
export interface CorrectApp {
  name: string
  /** The team's style, in words. */
  style: string
  variants: string[]
  /** Where the profile it writes differs from the clean app's. */
  shows?: Partial<ProfileFile>
}

const errorTexts = (changes: Partial<NonNullable<ProfileFile['errorTexts']>>) => ({
  errorTexts: { ...CLEAN_PROFILE.errorTexts, ...changes },
})

export const CORRECT_APPS: CorrectApp[] = [
  { name: 'clean', style: 'plain Optional fields, duplicates skipped, bulk 201, personas newest first', variants: [] },
  {
    name: 'schema_extra nullable',
    style: 'schema_extra marks Optional fields nullable; own exception handlers; errors declared',
    variants: ['legit:schema-extra-nullable', 'legit:exception-handlers', 'legit:declared-errors'],
    shows: {
      declaredErrors: {
        list_personas: [400, 401, 403],
        bulk_add_values: [401, 403, 404, 409],
        list_policy_rules: [401, 403, 404],
      },
    },
  },
  {
    name: 'no Query()',
    style: 'plain Optional query parameters and conint bounds; return annotations; personas oldest first',
    variants: ['legit:plain-optional', 'legit:return-annotation', 'legit:personas-oldest-first'],
  },
  {
    name: 'documented queries',
    style: 'Query() with titles, descriptions, examples and aliases; rules paged by page_size and skip',
    variants: ['legit:query-metadata', 'legit:rules-page-size-skip'],
    shows: { rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 } },
  },
  {
    name: 'JSONResponse by hand',
    style: 'JSONResponse built by hand, no model in /openapi.json; bulk answering 200, declared 200',
    variants: ['legit:json-response', 'legit:bulk-200'],
    shows: { bulkAddStatus: 200 },
  },
  {
    name: 'own 401, duplicates stored',
    style: 'HTTPBearer(auto_error=False) with its own 401; duplicates stored again',
    variants: ['legit:bearer-optional-401', 'legit:duplicates-stored'],
    shows: {
      missingCredentialsStatus: 401,
      bulkDuplicates: 'store',
      ...errorTexts({ notAuthenticated: 'Missing bearer token' }),
    },
  },
  {
    name: 'duplicates refused',
    style: 'duplicates refused with 409; schema_extra nullable; personas by name',
    variants: ['legit:bulk-reject-duplicates', 'legit:schema-extra-nullable', 'legit:personas-by-name'],
    shows: { bulkDuplicates: 'reject', ...errorTexts({ duplicateValues: 'Duplicate values: {values}' }) },
  },
  {
    name: 'newer FastAPI habits',
    style: "a newer FastAPI's 401; millisecond timestamps; intents as an enum; no length bounds; extra fields",
    variants: [
      'legit:missing-credentials-401',
      'legit:timestamps-ms',
      'legit:intents-enum',
      'legit:no-length-bounds',
      'legit:extra-fields',
    ],
    shows: {
      missingCredentialsStatus: 401,
      timestampUnit: 'ms',
      intents: 'enum',
      bounds: { personasLimitMax: 100, rulesLimitMax: 1000, bulkMaxItems: null, valueMaxLength: null },
    },
  },
]

/** A bug planted in a styled app: still failed, by these checks and no others. */
export interface StyledBug {
  bug: string
  style: string
  fails: string[]
}

export const STYLED_BUGS: StyledBug[] = [
  // A null marked by schema_extra is a null the server may send: the document shows it too.
  { bug: 'bug:model-used-null', style: 'legit:schema-extra-nullable', fails: ['drift.responses', 'schema.rule-list'] },
  // With no model in /openapi.json, only the answers show a field missing.
  { bug: 'bug:persona-missing-field', style: 'legit:json-response', fails: ['schema.persona-list'] },
  { bug: 'bug:rules-no-auth', style: 'legit:bearer-optional-401', fails: ['auth.no-token'] },
  { bug: 'bug:bulk-no-admin', style: 'legit:duplicates-stored', fails: ['auth.bulk-requires-admin'] },
]

/** The mock as a pydantic 2 FastAPI server (FastAPI's emulation in fastapi/), with the profile it runs. */
export interface CorrectMock {
  name: string
  style: string
  profile: ProfileOptions
  /** Its /openapi.json written as another pydantic 2 app writes it (pydantic2-spelling.ts). */
  respelled?: boolean
}

export const CORRECT_MOCKS: CorrectMock[] = [
  { name: 'pydantic 2.12', style: 'FastAPI 0.122–0.128 with pydantic 2.12 (the defaults)', profile: {} },
  {
    name: 'pydantic 2.13',
    style: 'FastAPI ≤0.121 with pydantic 2.13; duplicates stored again; bulk 200; millisecond timestamps',
    profile: {
      pydantic: '2.13',
      missingCredentialsStatus: 403,
      bulkDuplicates: 'store',
      bulkAddStatus: 200,
      timestampUnit: 'ms',
    },
  },
  {
    name: 'pydantic 2.13, respelled',
    style: 'pydantic 2.13 spelled by another app: generic model names, parameters without null, FastAPI ≥0.128.1',
    profile: { pydantic: '2.13', bulkDuplicates: 'reject', rulesPaging: { limit: 'page_size', offset: 'skip' } },
    respelled: true,
  },
]
