import type { VerifyContext } from '../context.js'
import { NO_CREDENTIAL, type ApiAnswer } from '../client/http.js'

/** An OpenAPI document, read as plain JSON. */
export type OpenApiDocument = {
  paths?: Record<string, unknown>
  components?: { schemas?: Record<string, unknown> }
} & Record<string, unknown>

/** What `/openapi.json` answered, and the document when it is one. */
export interface PublishedOpenApi {
  document?: OpenApiDocument
  answer: ApiAnswer
}

/** The server's `/openapi.json` (FastAPI publishes it without authentication), fetched once per run. */
export function serverOpenApi(ctx: VerifyContext): Promise<PublishedOpenApi> {
  return ctx.memo('openapi', async () => {
    const answer = await ctx.send({ method: 'GET', path: '/openapi.json', auth: NO_CREDENTIAL })
    return { answer, document: isOpenApi(answer.json) ? answer.json : undefined }
  })
}

function isOpenApi(json: unknown): json is OpenApiDocument {
  return (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { openapi?: unknown }).openapi === 'string' &&
    typeof (json as { paths?: unknown }).paths === 'object'
  )
}
