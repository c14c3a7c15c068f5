import { DEFAULT_PROFILE, type Profile } from '../../model/profile.js'
import { buildOpenApiDocument } from '../../fastapi/openapi/document.js'
import type { Check, CheckScope } from './check.js'
import { compareDocuments, type DriftFinding, type DriftKind } from '../drift/index.js'
import { sentEvidence } from './expectations.js'
import { NO_CREDENTIAL } from '../client/http.js'
import { serverOpenApi, type OpenApiDocument } from '../drift/openapi-source.js'
import { detectedProfile } from '../profile/detection.js'

/**
 * The server's /openapi.json against the mock's, built for the profile the run detected (so a
 * difference the profile explains, such as the rules paging names, is not drift), except for two
 * settings the comparison judges itself: the pydantic dialect (read through, not copied) and the
 * bounds (a server stricter than the mock's own bounds fails only where the description gives the bound,
 * verify/drift/described-bounds.ts; elsewhere it is a warning, or a profile finding naming the setting).
 */
function mockDocument(resolved: Profile): OpenApiDocument {
  const judged = Object.fromEntries(
    ['pydantic', 'bounds']
      .filter((name) => name in DEFAULT_PROFILE)
      .map((name) => [name, DEFAULT_PROFILE[name as keyof Profile]]),
  )
  return buildOpenApiDocument({ ...resolved, ...judged }) as OpenApiDocument
}

function driftFindings(scope: CheckScope): Promise<DriftFinding[]> {
  return scope.ctx.memo('drift', async () => {
    const { document } = await serverOpenApi(scope.ctx)
    const mock = mockDocument(detectedProfile(scope.ctx.profile).resolved)
    return document ? compareDocuments(document, mock) : []
  })
}

const SHOWN = 4
const OPENAPI_REQUEST = { method: 'GET' as const, path: '/openapi.json', auth: NO_CREDENTIAL }

/** Notes of one topic as one line: `<topic> (12 places: a, b, c, …)`; the others one by one. */
function notes(findings: readonly DriftFinding[]): string[] {
  const byTopic = new Map<string, string[]>()
  const single: string[] = []
  for (const { topic, message } of findings) {
    if (topic) byTopic.set(topic, [...(byTopic.get(topic) ?? []), message])
    else single.push(message)
  }
  const grouped = [...byTopic].map(([topic, places]) => {
    const shown = places.slice(0, SHOWN).join(', ')
    return `${topic} (${places.length} place${places.length > 1 ? 's' : ''}: ${shown}${places.length > SHOWN ? ', …' : ''})`
  })
  return [...single, ...grouped]
}

function driftCheck(kind: DriftKind, description: string): Check {
  return {
    id: `drift.${kind}`,
    kind: 'contract',
    description,
    needs: ['openapi'],
    async run(scope) {
      const findings = (await driftFindings(scope)).filter((item) => item.kind === kind)
      const expected = "what the mock's document declares (for the detected profile), or something more lenient"
      for (const finding of findings.filter((item) => item.verdict === 'failure'))
        scope.fail(sentEvidence(OPENAPI_REQUEST, expected, finding.message))
      for (const finding of findings.filter((item) => item.verdict === 'warning')) scope.warn(finding.message)
      for (const line of notes(findings.filter((item) => item.verdict === 'note'))) scope.note(line)
    },
  }
}

/** Drift of the server's /openapi.json from the mock's, one check per part of an operation. */
export const driftChecks: Check[] = [
  driftCheck('operations', "the server's /openapi.json declares every operation of the mock"),
  driftCheck(
    'parameters',
    "each operation takes the mock's parameters: none missing or required, no other type or format, no bound tighter than the description's",
  ),
  driftCheck(
    'request-body',
    "the bulk add body takes the mock's fields: none missing or required, no other type or format, no bound tighter than the description's",
  ),
  driftCheck(
    'responses',
    "each operation declares the mock's status codes and response fields, with the same types, never null where the mock is not",
  ),
]
