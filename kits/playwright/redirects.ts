/**
 * What the browser sends after a redirect, for the fixture to follow the mock's own redirects in the test process.
 * Playwright routes only the first request of a redirect chain, in every browser it drives (microsoft/playwright#2617:
 * WebKit and Firefox can only continue a redirect, so no browser's are routed): the follow-up of a 3xx the fixture
 * fulfilled went past the mock, to whatever served the page. The rules are fetch's "HTTP-redirect fetch".
 */
import type { Request as PlaywrightRequest } from '@playwright/test'

/** A request as the page sent it. Kept apart from a Fetch `Request`, whose body is read once, to build each hop. */
export interface SentRequest {
  url: string
  method: string
  headers: Headers
  body: Uint8Array<ArrayBuffer> | undefined
}

/** How many redirects a browser follows before the request fails (fetch's limit). */
export const MAX_REDIRECTS = 20

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/** The headers that describe a request's body: dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length']

/** The page's request: method, URL, every header (cookies included), the body's bytes. */
export async function sentRequest(request: PlaywrightRequest): Promise<SentRequest> {
  const body = request.postDataBuffer()
  return {
    url: request.url(),
    method: request.method(),
    headers: new Headers(await request.allHeaders()),
    // A copy: Node's Buffer may share a pooled ArrayBuffer, which the Fetch types do not take.
    body: body ? new Uint8Array(body) : undefined,
  }
}

/** The Fetch request msw's handlers read, made anew for each reader. */
export function toFetchRequest(sent: SentRequest): Request {
  return new Request(sent.url, { method: sent.method, headers: sent.headers, body: sent.body })
}

/**
 * The request a browser sends after this answer, when the answer redirects to the request's own origin; else
 * undefined. A redirect to another origin is left to the browser: it would send that one with other headers (no
 * `Authorization`, an `Origin` of `null`) and check its answer's CORS headers.
 */
export function redirectedRequest(sent: SentRequest, response: Response): SentRequest | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined
  const target = locationOf(response, sent.url)
  if (!target || target.origin !== new URL(sent.url).origin) return undefined
  const next = { ...sent, url: target.href }
  return becomesGet(response.status, sent.method) ? withoutBody(next) : next
}

/** The answer's `Location`, resolved against the request's URL; undefined when it has none a browser can follow. */
function locationOf(response: Response, base: string): URL | undefined {
  const location = response.headers.get('location')
  if (location === null) return undefined
  try {
    return new URL(location, base)
  } catch {
    return undefined
  }
}

/** Whether the browser turns the redirected request into a GET: a POST after 301 or 302, anything but HEAD after 303. */
function becomesGet(status: number, method: string): boolean {
  if (status === 303) return method !== 'GET' && method !== 'HEAD'
  return (status === 301 || status === 302) && method === 'POST'
}

function withoutBody(sent: SentRequest): SentRequest {
  const headers = new Headers(sent.headers)
  for (const name of BODY_HEADERS) headers.delete(name)
  return { ...sent, method: 'GET', headers, body: undefined }
}
