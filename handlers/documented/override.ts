import {
  InvalidOverrideError,
  prepareAnswerWith,
  problemsOf,
  type PreparedAnswer,
} from '../../core/overrides/answer.js'
import type { DocumentOperation, ServedDocument } from '../../fastapi/served/document.js'
import { servedAnswer } from '../../fastapi/served/response.js'
import { zodOf } from '../../fastapi/served/to-zod.js'

/**
 * What a control override (`PUT /__mock/overrides/{name}`) of a served operation answers: its declared success
 * status with a body its response schema takes, written as its answers are, or an error shape (a 404 in the
 * words of the document's example, if it gives one).
 * @throws InvalidOverrideError naming each problem
 */
export function servedOverride(
  document: ServedDocument,
  operation: DocumentOperation,
  name: string,
  result: unknown,
): PreparedAnswer {
  const declared = operation.success
  return prepareAnswerWith(name, result, {
    success: (status, body, headers) => {
      if (status !== undefined && status !== declared.status)
        throw new InvalidOverrideError(name, [
          `status: ${status} is not an answer of ${name}: give ${declared.status}, or an error status (400 to 599)`,
        ])
      const parsed = declared.schema && zodOf(document, declared.schema).safeParse(body)
      if (parsed && !parsed.success) throw new InvalidOverrideError(name, problemsOf(parsed.error, 'body'))
      return () => {
        const response = servedAnswer(document, operation, body)
        for (const [header, value] of Object.entries(headers)) response.headers.set(header, value)
        return response
      }
    },
    forbidden: () => 'Forbidden',
    notFound: () => operation.notFoundDetail ?? 'Not Found',
  })
}
