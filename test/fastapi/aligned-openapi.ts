import { expect } from 'vitest'
import type { ProfileOptions } from 'agent-console-mock'

/**
 * Compares the reference app's /openapi.json with the mock's. The paths (every parameter, body and
 * response, in FastAPI 0.92's key order, with its `100.0` bounds) must be the same bytes. Components:
 * the mock's rule fields are enums and a Constraint model where the reference app types them `str` and
 * `Dict[str, Any]` (decisions.md settles them), so those differ by design; every other one is the same.
 */
const MOCK_ONLY = ['Assignee', 'ConsequenceAction', 'Constraint', 'ConstraintLogic', 'ConstraintOperator', 'Severity']
/** The reference app's declared errors name an HTTPError model; the mock declares descriptions only. */
const REFERENCE_ONLY = ['HTTPError']
const DECIDED_DIFFERENTLY = ['Consequence', 'PolicyRule']

type Json = Record<string, any>

/**
 * FastAPI 0.115's document and the mock's, as they would read if the mock's pydantic (2.12) were the app's
 * (2.10), by the two differences between them (docs/verification.md):
 * - pydantic >= 2.11 writes `Dict[str, Any]` as `{"additionalProperties": true, "type": "object"}`, 2.10 as
 *   `{"type": "object"}`;
 * - the app keeps its pydantic-1 `extra = "forbid"` on PersonaAccessPermissions, which pydantic 2 writes as
 *   `additionalProperties: false`; a pydantic-2 app needs no such guard (its unions are smart), so the mock's has none.
 */
export function asPydantic210(reference: string, mock: string): [string, string] {
  const forbidden = '"additionalProperties":false,"type":"object","title":"PersonaAccessPermissions"'
  expect(reference, 'the app forbids extra fields of PersonaAccessPermissions').toContain(forbidden)
  expect(mock, 'the mock writes Dict[str, Any] as pydantic 2.11 does').toContain('"additionalProperties":true,')
  return [
    reference.replace(forbidden, '"type":"object","title":"PersonaAccessPermissions"'),
    mock.replaceAll('"additionalProperties":true,', ''),
  ]
}

export function compareOpenApi(referenceDocument: string, got: string, profile: ProfileOptions): void {
  // For legit:missing-credentials-401 the reference app subclasses HTTPBearer (FastAPI 0.92's answers 403),
  // and FastAPI names a scheme after its class. FastAPI ≥0.122, which answers 401 itself, names it HTTPBearer.
  const expected =
    profile.missingCredentialsStatus === 403
      ? referenceDocument
      : referenceDocument.replaceAll('"HTTPBearer401"', '"HTTPBearer"')
  expect(got.slice(0, got.indexOf('"paths":')), 'openapi and info').toBe(
    expected.slice(0, expected.indexOf('"paths":')),
  )
  const [reference, mock] = [JSON.parse(expected) as Json, JSON.parse(got) as Json]
  if (profile.declaredErrors) compareDeclared(reference, mock, profile.declaredErrors)
  else expect(rawPaths(got), 'paths, byte for byte').toBe(rawPaths(expected))
  expect(Object.keys(mock['components'])).toEqual(Object.keys(reference['components']))
  const [ours, theirs] = [mock['components']['schemas'] as Json, reference['components']['schemas'] as Json]
  expect(Object.keys(ours).filter((name) => !(name in theirs))).toEqual(MOCK_ONLY)
  expect(Object.keys(theirs).filter((name) => !(name in ours))).toEqual(profile.declaredErrors ? REFERENCE_ONLY : [])
  for (const name of Object.keys(theirs).filter((name) => name in ours && !DECIDED_DIFFERENTLY.includes(name))) {
    expect.soft(JSON.stringify(ours[name]), `components.schemas.${name}`).toBe(JSON.stringify(theirs[name]))
  }
  expect(JSON.stringify(mock['components']['securitySchemes'])).toBe(
    JSON.stringify(reference['components']['securitySchemes']),
  )
}

/** The `paths` object as written: `components` follows it in both documents. */
const rawPaths = (document: string) => document.slice(document.indexOf('"paths":'), document.indexOf(',"components":'))

/**
 * With declared errors the reference app writes `{"model": HTTPError, "description": "Error 401"}` and the
 * mock `{"description": "Unauthorized"}`: the same statuses, in the same places; everything else the same.
 */
function compareDeclared(reference: Json, mock: Json, declared: NonNullable<ProfileOptions['declaredErrors']>): void {
  const statuses = Object.values(declared).flat().map(String)
  for (const [path, item] of Object.entries(reference['paths'] as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const ours = mock['paths'][path][method] as Json
      expect(Object.keys(ours['responses']), `${method} ${path} responses`).toEqual(Object.keys(operation['responses']))
      for (const document of [operation, ours]) for (const status of statuses) delete document['responses'][status]
      expect(JSON.stringify(ours), `${method} ${path}`).toBe(JSON.stringify(operation))
    }
  }
}
