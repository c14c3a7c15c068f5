import type { ApiAnswer, ApiRequest } from './requests.js'

/** How reports name requests and answers: never with a token (a credential is named by its role). */

/** The path and query of a request, encoded as sent. */
export function describePath(request: ApiRequest): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue
    const values = Array.isArray(value) ? value : [value]
    for (const item of values) params.append(name, String(item))
  }
  const query = params.toString()
  return query ? `${request.path}?${query}` : request.path
}

/** A request in one line without its body: for sources that must stay short. */
export function requestLine(request: ApiRequest): string {
  return `${request.method} ${describePath(request)}`
}

/** How a report names a request: method, path and query, credential, and the body. */
export function describeRequest(request: ApiRequest): string {
  const body = request.rawJson ?? (request.json === undefined ? undefined : JSON.stringify(request.json))
  const sent = body === undefined ? '' : ` body ${truncate(body, 200)}`
  return `${request.method} ${describePath(request)} (${request.auth.label})${sent}`
}

/** Cuts long server texts for reports. */
function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text
}

/** How a report names an answer: status and body. */
export function describeAnswer(answer: ApiAnswer): string {
  return `${answer.status} ${truncate(answer.text, 300)}`
}
