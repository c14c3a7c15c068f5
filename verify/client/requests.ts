/** The verifier's requests and answers as data: what a check sends, and what came back. */

/** An `Authorization` header to send, named by the role it stands for. */
export interface Credential {
  /** How reports name it: `token`, `admin token`, `no token`, ... */
  label: string
  /** The header value, or undefined to send none. */
  header: string | undefined
  /**
   * The header value as a curl command writes it (inside double quotes): a token as `$VARIABLE`,
   * never its value. Without it, curl commands name the credential instead of sending it.
   */
  shell?: string
}

/** A query value; an array repeats the parameter. */
export type QueryValue = string | number | boolean | readonly string[]

/** A request of the verifier, described in reports without its token. */
export interface ApiRequest {
  method: 'GET' | 'POST'
  /** Starts with `/`; appended to the base URL as is. */
  path: string
  /** Pairs in order; an array value repeats the name (`?intents=a&intents=b`). */
  query?: Record<string, QueryValue | undefined>
  auth: Credential
  /** Sent as JSON. */
  json?: unknown
  /** Sent as is, with `content-type: application/json` (for invalid JSON). */
  rawJson?: string
  /** How a curl command writes a large generated body (inside double quotes), instead of the body itself. */
  shellBody?: string
}

/** An answer, read once. `json` is undefined when the body is not JSON. */
export interface ApiAnswer {
  request: ApiRequest
  status: number
  headers: Headers
  text: string
  json: unknown
  durationMs: number
}

/** `Bearer <token>`, labelled; curl commands read the token from `variable`. */
export const bearer = (label: string, token: string, variable: string): Credential => ({
  label,
  header: `Bearer ${token}`,
  shell: `Bearer $${variable}`,
})
/** No `Authorization` header at all. */
export const NO_CREDENTIAL: Credential = { label: 'no token', header: undefined, shell: undefined }
