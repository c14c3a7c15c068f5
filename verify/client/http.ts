import { describePath, describeRequest } from './describe.js'
import type { ApiAnswer, ApiRequest } from './requests.js'
import { whyUnreachable } from './unreachable.js'

/**
 * The verifier's only way to the server: one request at a time, each bounded by a timeout,
 * redirects not followed (a 307 is an answer to report, not to hide), and tokens never written
 * into a report (a request names its credential by role). A rate limit's 429 is waited out and the
 * request sent again: "Rate limits: not shown", so a limit is the server's choice, not a failure.
 */

/** Times a request refused with 429 is sent again, each after the wait the answer asks for. */
const RATE_LIMIT_RETRIES = 5
/** The wait when a 429 names none, and the longest one taken (a `Retry-After` of an hour would outlast any run). */
const DEFAULT_RETRY_MS = 1000
const LONGEST_RETRY_MS = 10_000

/** The server did not accept a connection at all. `request` names the request that found out. */
export class ServerUnreachableError extends Error {
  override readonly name = 'ServerUnreachableError'
  constructor(
    message: string,
    readonly request: string,
    readonly sent?: ApiRequest,
  ) {
    super(message)
  }
}

/** A request got no answer in time. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError'
  constructor(
    message: string,
    readonly request: string,
    readonly sent?: ApiRequest,
  ) {
    super(message)
  }
}

/**
 * Sends the verifier's requests to one base URL, each with its own timeout.
 * @example await new ContractClient('http://127.0.0.1:4010', 5000).send({ method: 'GET', path: '/v1/personas/', auth: NO_CREDENTIAL })
 */
export class ContractClient {
  readonly #baseUrl: string
  readonly #timeoutMs: number
  #sent = 0
  #rateLimited = 0

  constructor(baseUrl: string, timeoutMs: number) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '')
    this.#timeoutMs = timeoutMs
  }

  /** Requests sent so far. */
  get sent(): number {
    return this.#sent
  }

  /** Requests refused with 429 and sent again once the rate limit's wait was over. */
  get rateLimited(): number {
    return this.#rateLimited
  }

  /**
   * Sends one request; one refused with 429 (a rate limit) is sent again after the wait its `Retry-After` asks for,
   * up to {@link RATE_LIMIT_RETRIES} times (a limiter refuses a request before the server takes it in).
   * @throws ServerUnreachableError when no connection could be made, RequestTimeoutError after the timeout.
   */
  async send(request: ApiRequest): Promise<ApiAnswer> {
    for (let retries = 0; ; retries++) {
      const answer = await this.#sendOnce(request)
      if (answer.status !== 429 || retries === RATE_LIMIT_RETRIES) return answer
      this.#rateLimited += 1
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(answer.headers.get('retry-after'))))
    }
  }

  async #sendOnce(request: ApiRequest): Promise<ApiAnswer> {
    const started = performance.now()
    this.#sent += 1
    try {
      const res = await fetch(this.url(request), this.init(request))
      const text = await readTextUpTo(res, MAX_ANSWER_BYTES, describeRequest(request))
      return {
        request,
        status: res.status,
        headers: res.headers,
        text,
        json: parseJson(text),
        durationMs: performance.now() - started,
      }
    } catch (error) {
      if (error instanceof AnswerTooLargeError) throw error
      throw this.explain(error, request)
    }
  }

  /** The absolute URL of a request. */
  url(request: ApiRequest): string {
    return this.#baseUrl + describePath(request)
  }

  private init(request: ApiRequest): RequestInit {
    const headers = new Headers({ accept: 'application/json' })
    if (request.auth.header !== undefined) headers.set('authorization', request.auth.header)
    const body = request.rawJson ?? (request.json === undefined ? undefined : JSON.stringify(request.json))
    if (body !== undefined) headers.set('content-type', 'application/json')
    return { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.#timeoutMs) }
  }

  private explain(error: unknown, request: ApiRequest): Error {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new RequestTimeoutError(`no answer within ${this.#timeoutMs} ms`, describeRequest(request), request)
    }
    return new ServerUnreachableError(
      `Cannot reach ${this.#baseUrl}: ${whyUnreachable(error)}`,
      describeRequest(request),
      request,
    )
  }
}

/**
 * The most of one answer the client reads: far beyond any page of the API (a page of 1,000 personas is about a
 * megabyte), and far below what would exhaust the heap (reading a 300 MB page took 1.2 GB).
 */
export const MAX_ANSWER_BYTES = 64 * 2 ** 20

/** An answer longer than {@link MAX_ANSWER_BYTES}: not read further. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError'
  constructor(readonly request: string) {
    super(`The server answered ${request} with more than ${MAX_ANSWER_BYTES / 2 ** 20} MiB: not read further.`)
  }
}

/** The body as text, read as it comes and given up past `max` bytes. */
async function readTextUpTo(res: Response, max: number, request: string): Promise<string> {
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel()
    throw new AnswerTooLargeError(request)
  }
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  const reader = res.body?.getReader()
  if (!reader) return ''
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength
    if (bytes > max) {
      await reader.cancel().catch(() => undefined)
      throw new AnswerTooLargeError(request)
    }
    text += decoder.decode(read.value, { stream: true })
  }
  return text + decoder.decode()
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export { describeAnswer, describeRequest, requestLine } from './describe.js'
export { bearer, NO_CREDENTIAL, type ApiAnswer, type ApiRequest, type Credential, type QueryValue } from './requests.js'

/** The wait a 429's `Retry-After` asks for (seconds, or an HTTP date), within {@link LONGEST_RETRY_MS}. */
export function retryDelayMs(retryAfter: string | null, now = Date.now()): number {
  const text = retryAfter?.trim() ?? ''
  // Seconds, or an HTTP date (`Tue, 01 Jan 2030 00:00:03 GMT`): anything else asks for no wait of its own.
  const ms = /^\d+$/.test(text)
    ? Number(text) * 1000
    : /^[A-Za-z]{3}, /.test(text)
      ? Date.parse(text) - now
      : Number.NaN
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), LONGEST_RETRY_MS) : DEFAULT_RETRY_MS
}
