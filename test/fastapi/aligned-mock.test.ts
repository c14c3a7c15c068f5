import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProfileOptions } from 'agent-console-mock'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import { brief, mockSide, referenceSide, send } from './aligned-client.js'
import { ALIGNED_REQUESTS, type AlignedRequest, type ServerSide } from './aligned-requests.js'
import { compareOpenApi } from './aligned-openapi.js'
import { DEFAULT_SECRET, fastApiUnavailable, startFastApi, type RunningFastApi } from './server.js'

/**
 * The mock with a profile that matches a variant of the reference FastAPI 0.92 + pydantic 1.10 app answers
 * the same requests with the same bytes: status, the headers that matter, body. The profiles are written by
 * hand here (the verifier's automatic profile is tested elsewhere).
 */
const unavailable = fastApiUnavailable()
if (unavailable) console.warn(`test/fastapi/aligned-mock skipped: ${unavailable}`)

interface Alignment {
  variants: string[]
  profile: ProfileOptions
  /** Requests only this variant makes data-independent. */
  extra?: AlignedRequest[]
}

const duplicates: AlignedRequest = {
  name: 'bulk: a value repeated in the request is rejected',
  method: 'POST',
  path: (ids) => `/v1/demographics/${ids.dimension}/values/bulk`,
  auth: 'admin',
  body: JSON.stringify({ values: [{ value: 'zz-aligned' }, { value: 'zz-aligned' }] }),
}

const ALIGNMENTS: Alignment[] = [
  { variants: [], profile: { pydantic: '1', missingCredentialsStatus: 403 } },
  { variants: ['legit:missing-credentials-401', 'legit:intents-enum'], profile: { pydantic: '1', intents: 'enum' } },
  {
    variants: ['legit:no-length-bounds', 'legit:bulk-200', 'legit:rules-page-size-skip'],
    profile: {
      pydantic: '1',
      missingCredentialsStatus: 403,
      bounds: { bulkMaxItems: null, valueMaxLength: null },
      bulkAddStatus: 200,
      rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 },
    },
  },
  {
    variants: ['legit:declared-errors', 'legit:bulk-reject-duplicates'],
    profile: {
      pydantic: '1',
      missingCredentialsStatus: 403,
      bulkDuplicates: 'reject',
      declaredErrors: {
        list_personas: [400, 401, 403],
        bulk_add_values: [401, 403, 404, 409],
        list_policy_rules: [401, 403, 404],
      },
    },
    extra: [duplicates],
  },
]

describe.skipIf(unavailable !== undefined).each(ALIGNMENTS)(
  'the mock aligned with FastAPI 0.92 [$variants]',
  (alignment) => {
    let reference: RunningFastApi
    let mock: RunningServer
    const sides = {} as { reference: ServerSide; mock: ServerSide }

    beforeAll(async () => {
      ;[reference, mock] = await Promise.all([
        startFastApi({ variants: alignment.variants, secret: DEFAULT_SECRET }),
        startServer({
          port: 0,
          seed: 13,
          jwtSecret: DEFAULT_SECRET,
          profile: alignment.profile,
          cors: false,
          logger: quiet,
        }),
      ])
      ;[sides.reference, sides.mock] = await Promise.all([referenceSide(reference), mockSide(mock.url, DEFAULT_SECRET)])
    }, 60_000)

    afterAll(async () => {
      await Promise.all([reference?.stop(), mock?.close()])
    })

    const requests = [...ALIGNED_REQUESTS, ...(alignment.extra ?? [])]
    it(`answers ${requests.length} data-independent requests byte for byte as the reference app`, async () => {
      for (const request of requests) {
        const [expected, got] = [
          await send(reference.url, sides.reference, request),
          await send(mock.url, sides.mock, request),
        ]
        expect.soft(brief(got), request.name).toEqual(brief(expected))
      }
    })

    it("serves the reference app's /openapi.json (paths byte for byte, every shared component)", async () => {
      const [expected, got] = await Promise.all(
        [reference.url, mock.url].map(async (url) => (await fetch(`${url}/openapi.json`)).text()),
      )
      compareOpenApi(expected!, got!, alignment.profile)
    })
  },
)

/** No line per request; a bug of the mock still shows. */
const quiet = { error: (message: string, error?: unknown) => console.error(message, error) }
