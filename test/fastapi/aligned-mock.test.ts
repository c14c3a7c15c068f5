import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProfileOptions } from 'agent-console-mock'
import { startServer, type RunningServer } from 'agent-console-mock/server'
import { brief, mockSide, referenceSide, send } from './aligned-client.js'
import { ALIGNED_REQUESTS, type AlignedRequest, type ServerSide } from './aligned-requests.js'
import { asPydantic210, compareOpenApi } from './aligned-openapi.js'
import { fastapi0115, fastapi092, type FastApiRuntime } from './python.js'
import { DEFAULT_SECRET, startFastApi, type RunningFastApi } from './server.js'

/**
 * The mock with a profile that matches a variant of the reference app answers the same requests with the same
 * bytes: status, the headers that matter, body. The app runs under FastAPI 0.92 + pydantic 1.10 (the mock under
 * `pydantic: '1'`) and under FastAPI 0.115 + pydantic 2 (the mock's default dialect). The profiles are written by
 * hand here (the verifier's automatic profile is tested elsewhere).
 */
interface Generation {
  runtime: FastApiRuntime
  /** The profile options every alignment under it adds. */
  dialect: ProfileOptions
  /** Requests whose 422 body differs by the app's Python (the mock writes CPython 3.11's), and why. */
  pythonDiffers?: Record<string, string>
  /** The two documents as they would read if the mock's pydantic were the app's (docs/verification.md). */
  documents?: (reference: string, mock: string) => [string, string]
}
const GENERATIONS: Generation[] = [
  { runtime: fastapi092, dialect: { pydantic: '1' } },
  {
    runtime: fastapi0115,
    dialect: {},
    pythonDiffers: {
      'bulk: a trailing comma': 'CPython 3.13 says "Illegal trailing comma before end of object", at the comma',
    },
    documents: asPydantic210,
  },
]
for (const { runtime } of GENERATIONS) {
  const unavailable = runtime.unavailable()
  if (unavailable) console.warn(`test/fastapi/aligned-mock skipped for ${runtime.name}: ${unavailable}`)
}

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
  { variants: [], profile: { missingCredentialsStatus: 403 } },
  { variants: ['legit:missing-credentials-401', 'legit:intents-enum'], profile: { intents: 'enum' } },
  {
    variants: ['legit:no-length-bounds', 'legit:bulk-200', 'legit:rules-page-size-skip'],
    profile: {
      missingCredentialsStatus: 403,
      bounds: { bulkMaxItems: null, valueMaxLength: null },
      bulkAddStatus: 200,
      rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 },
    },
  },
  {
    variants: ['legit:declared-errors', 'legit:bulk-reject-duplicates'],
    profile: {
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

const CASES = GENERATIONS.flatMap((generation) =>
  ALIGNMENTS.map((alignment) => ({
    ...alignment,
    ...generation,
    profile: { ...generation.dialect, ...alignment.profile },
  })),
)

describe.each(CASES)('the mock aligned with $runtime.name [$variants]', (alignment) => {
  const unavailable = alignment.runtime.unavailable()
  let reference: RunningFastApi
  let mock: RunningServer
  const sides = {} as { reference: ServerSide; mock: ServerSide }

  beforeAll(async () => {
    if (unavailable) return
    ;[reference, mock] = await Promise.all([
      startFastApi({ variants: alignment.variants, secret: DEFAULT_SECRET, runtime: alignment.runtime }),
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
  it.skipIf(unavailable)(
    `answers ${requests.length} data-independent requests byte for byte as the reference app`,
    async () => {
      for (const request of requests) {
        const [expected, got] = [
          await send(reference.url, sides.reference, request),
          await send(mock.url, sides.mock, request),
        ]
        const why = alignment.pythonDiffers?.[request.name]
        if (why) {
          expect.soft(got.status, request.name).toBe(expected.status)
          expect.soft(got.body, `${request.name}: ${why}`).not.toBe(expected.body)
        } else expect.soft(brief(got), request.name).toEqual(brief(expected))
      }
    },
  )

  it.skipIf(unavailable)(
    "serves the reference app's /openapi.json (paths byte for byte, every shared component)",
    async () => {
      const served = await Promise.all(
        [reference.url, mock.url].map(async (url) => (await fetch(`${url}/openapi.json`)).text()),
      )
      const [expected, got] = alignment.documents ? alignment.documents(served[0]!, served[1]!) : served
      compareOpenApi(expected!, got!, alignment.profile)
    },
  )
})

/** No line per request; a bug of the mock still shows. */
const quiet = { error: (message: string, error?: unknown) => console.error(message, error) }
