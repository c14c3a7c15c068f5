import { HttpHandler, RequestHandler, type HttpHandlerMethod, type HttpRequestParsedResult } from 'msw'
import { withBody } from './fastapi/responses.js'

/**
 * msw handlers that match on the raw (still percent-encoded) pathname. msw's own path
 * patterns decode the path with `decodeURIComponent`, which throws on escapes that are not
 * UTF-8 (`%FF`) or not escapes at all (`%zz`) and turns them into msw's 500; FastAPI answers
 * such paths like any other. So no handler here uses a path pattern.
 *
 * They are msw `HttpHandler`s in every respect (matching by method, logging, overriding
 * with `server.use`), but cheaper on the way in: msw tries the handlers one by one, and an
 * `HttpHandler` parses the URL and every cookie for each one it tries. Here the URL is
 * parsed once per request (see {@link urlOf}) and no cookie is parsed: these resolvers do
 * not read msw's `cookies`.
 */
class PathHandler extends HttpHandler {
  readonly #matches: (url: URL) => boolean
  readonly #answer: Answer

  constructor(method: HttpHandlerMethod, matches: (url: URL) => boolean, answer: Answer) {
    super(method, ({ request }) => matches(urlOf(request)), ({ request }) => answer(request))
    this.#matches = matches
    this.#answer = answer
  }

  override async parse({ request }: { request: Request }): Promise<HttpRequestParsedResult> {
    return { match: { matches: this.#matches(urlOf(request)), params: {} }, cookies: {} }
  }

  /**
   * msw's `run`, less what these handlers never use: generator resolvers, `once`,
   * `finalize` cleanups and forwarding `Set-Cookie` to `document.cookie`. msw's own `run`
   * aborts an `AbortController` after every resolver, for `finalize`; in Node 20 each abort
   * builds a `DOMException` (a captured stack, kept in a `WeakMap`) that held each request's
   * objects past young-generation GCs: a fifth of the CPU time and ~2 KB of old-generation
   * garbage a request. Like msw, it gives the result a clone of the request for logging,
   * except to a host's request ({@link fromHost}).
   */
  override async run({ request, requestId }: RunArgs): RunResult {
    const parsedResult = await this.parse({ request })
    if (!(await this.predicate({ request, parsedResult }))) return null
    const host = isFromHost(request)
    const requestClone = host ? request : loggingClone(request)
    this.isUsed = true
    const response = await answerOrThrown(this.#answer, request)
    return { handler: this, request: requestClone, requestId, parsedResult, response: response && (host ? response : withBody(response)) }
  }
}

const FROM_HOST = Symbol('agent-console-mock host request')

/**
 * Marks a request that a host hands to msw's `getResponse` and answers itself: it writes
 * the answer's bytes (`writtenBody`, fastapi/responses.ts) to its socket and logs no request. So its answer
 * needs no body stream, and the request no clone for logging (a clone costs a `WeakMap`
 * entry in msw's cache, which outlives young-generation GCs).
 */
export const fromHost = (request: Request): void => void ((request as HostRequest)[FROM_HOST] = true)
const isFromHost = (request: Request): boolean => (request as HostRequest)[FROM_HOST] === true
type HostRequest = Request & { [FROM_HOST]?: true }

type Answer = (request: Request) => Response | undefined | Promise<Response | undefined>
type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = ReturnType<HttpHandler['run']>

/** The clone of `request` that msw's logging reads, made once per request as msw makes it. */
function loggingClone(request: Request): Request {
  const cache = RequestHandler.cache as WeakMap<Request, Request>
  let clone = cache.get(request)
  if (!clone) cache.set(request, (clone = request.clone()))
  return clone
}

/** As msw's resolvers: a thrown Response is the answer. */
async function answerOrThrown(answer: Answer, request: Request): Promise<Response | undefined> {
  try {
    return await answer(request)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

/** Any method, as msw's `http.all` matches it. */
export const ANY_METHOD = /.+/

/** A handler for requests of `method` to the `base` origin (`*`: any) whose raw pathname passes `test`. */
export const onPath = (
  method: HttpHandlerMethod,
  base: string,
  test: (pathname: string) => boolean,
  resolver: Answer,
): HttpHandler => new PathHandler(method, (url) => (base === '*' || url.origin === base) && test(url.pathname), resolver)

/** A handler for one exact pathname. */
export const atPath = (method: HttpHandlerMethod, base: string, pathname: string, resolver: (request: Request) => Response | Promise<Response>) =>
  onPath(method, base, (candidate) => candidate === pathname, resolver)

const PARSED_URL = Symbol('agent-console-mock parsed URL')

/**
 * The request's URL, parsed once however many handlers and steps read it. Readers must not
 * change it. Kept on the request itself rather than in a `WeakMap`, whose entries outlive
 * young-generation GCs (in a micro-benchmark, ~1.5 KB more old-generation garbage a request).
 */
export function urlOf(request: Request): URL {
  const holder = request as Request & { [PARSED_URL]?: URL }
  return (holder[PARSED_URL] ??= new URL(request.url))
}
