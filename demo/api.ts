/**
 * The demo's only way to the API. It knows the three things that differ between modes (where
 * requests go, the session header, the token) and turns every answer, failed or not, into one
 * shape the panels can render, so no panel ever deals with `fetch` rejections or JSON parsing.
 */

/** One entry of a FastAPI 422 `detail` array (pydantic's error shape). */
export interface ValidationIssue {
  type: string
  loc: Array<string | number>
  msg: string
  input?: unknown
  ctx?: Record<string, unknown>
}

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  // `detail` is a string for 4xx errors raised by the app, an array for validation errors.
  | { ok: false; status: number; detail: string | ValidationIssue[] }

export type Query = Record<string, string | number | boolean | ReadonlyArray<string> | undefined>

export class ApiClient {
  /** The bearer token of the role chosen in the header; `undefined` sends no Authorization. */
  token: string | undefined

  /**
   * @param base '' for same-origin requests (worker and network modes, where something in or
   *   around the browser answers them), or the mock server's origin (server mode).
   * @param session sent as `X-Mock-Session`, so parallel test workers on one server each get
   *   their own world.
   */
  constructor(
    readonly base: string,
    readonly session?: string,
  ) {}

  get<T>(path: string, query: Query = {}): Promise<ApiResult<T>> {
    return this.request<T>('GET', path, query)
  }

  post<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    return this.request<T>('POST', path, {}, body)
  }

  async request<T>(method: string, path: string, query: Query, body?: unknown): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.token) headers.authorization = `Bearer ${this.token}`
    if (this.session) headers['x-mock-session'] = this.session
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(this.base + path + queryString(query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      // A dropped connection, CORS refusal or a server that is not running: status 0.
      return { ok: false, status: 0, detail: `Network error: ${(error as Error).message}` }
    }
    const text = await response.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      return { ok: false, status: response.status, detail: `Not JSON: ${text.slice(0, 200)}` }
    }
    if (response.ok) return { ok: true, status: response.status, data: json as T }
    const detail = (json as { detail?: unknown } | undefined)?.detail
    return {
      ok: false,
      status: response.status,
      detail: Array.isArray(detail) || typeof detail === 'string' ? detail : text || response.statusText,
    }
  }
}

/**
 * Builds `?a=1&intents=x&intents=y`: arrays become repeated keys (how FastAPI reads a
 * `list[str]` query parameter) and `undefined` leaves the parameter out, so the API's own
 * defaults apply instead of ones the demo would invent.
 */
function queryString(query: Query): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) params.append(key, item)
    else params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}
