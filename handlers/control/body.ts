import type { z } from 'zod'
import { httpError } from '../../fastapi/http/responses.js'

/** The body as JSON; an empty body is `undefined`; anything else that is not JSON answers 400. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text()
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw httpError(400, 'The body is not valid JSON')
  }
}

/** A body its schema refused: 400, each problem as `path: message`, as the other control routes answer. */
export const invalidBody = (error: z.ZodError) =>
  httpError(400, error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '))
