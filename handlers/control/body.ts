import type { z } from 'zod'
import { httpError } from '../../fastapi/http/responses.js'
import { MAX_JSON_DEPTH } from '../../fastapi/python/json-decode.js'

/**
 * The body as JSON; an empty body is `undefined`; anything else that is not JSON answers 400, as
 * does JSON nested deeper than the API takes: what is stored must load again from a state file.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text()
  if (text.trim() === '') return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw httpError(400, 'The body is not valid JSON')
  }
  if (nestingOf(text) > MAX_JSON_DEPTH)
    throw httpError(400, `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`)
  return body
}

/** How deep the arrays and objects of a JSON text nest (brackets inside strings skipped). */
function nestingOf(json: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let index = 0; index < json.length; index++) {
    const char = json[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth)
    else if (char === ']' || char === '}') depth--
  }
  return deepest
}

/** A body its schema refused: 400, each problem as `path: message`, as the other control routes answer. */
export const invalidBody = (error: { issues: ReadonlyArray<Pick<z.core.$ZodIssue, 'path' | 'message'>> }) =>
  httpError(400, error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '))
