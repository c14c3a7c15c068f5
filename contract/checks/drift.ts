import { buildOpenApiDocument } from '../../openapi/document.js'
import type { Check, CheckScope } from '../check.js'
import { compareDocuments, type DriftFinding, type DriftKind } from '../drift.js'
import { serverOpenApi, type OpenApiDocument } from '../openapi-source.js'
import { detectedProfile } from '../profile-detection.js'

/**
 * The server's /openapi.json against the mock's, built for the profile the run detected (so a
 * difference the profile explains, such as the rules paging names, is not drift).
 */
function driftFindings(scope: CheckScope): Promise<DriftFinding[]> {
  return scope.ctx.memo('drift', async () => {
    const { document } = await serverOpenApi(scope.ctx)
    const mock = buildOpenApiDocument(detectedProfile(scope.ctx.profile).resolved) as OpenApiDocument
    return document ? compareDocuments(document, mock) : []
  })
}

function driftCheck(kind: DriftKind, description: string): Check {
  return {
    id: `drift.${kind}`,
    description,
    needs: ['openapi'],
    async run(scope) {
      for (const finding of (await driftFindings(scope)).filter((item) => item.kind === kind)) {
        if (finding.severity === 'warning') scope.warn(finding.message)
        else scope.fail({ request: 'GET /openapi.json', expected: 'what the mock\'s document declares (for the detected profile)', got: finding.message })
      }
    },
  }
}

/** Drift of the server's /openapi.json from the mock's, one check per part of an operation. */
export const driftChecks: Check[] = [
  driftCheck('operations', 'the server\'s /openapi.json declares every operation of the mock'),
  driftCheck('parameters', 'each operation declares the mock\'s parameters, with the same required flags, bounds and defaults'),
  driftCheck('request-body', 'the bulk add body declares the mock\'s fields, types and bounds'),
  driftCheck('responses', 'each operation declares the mock\'s status codes and response fields, with the same types'),
]
