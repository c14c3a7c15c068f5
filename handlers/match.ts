import { HttpHandler, type HttpHandlerMethod, type HttpRequestParsedResult, type ResponseResolver } from 'msw'

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

  constructor(method: HttpHandlerMethod, matches: (url: URL) => boolean, resolver: ResponseResolver<{ params: object; cookies: Record<string, string> }>) {
    super(method, ({ request }) => matches(urlOf(request)), resolver)
    this.#matches = matches
  }

  override async parse({ request }: { request: Request }): Promise<HttpRequestParsedResult> {
    return { match: { matches: this.#matches(urlOf(request)), params: {} }, cookies: {} }
  }
}

/** Any method, as msw's `http.all` matches it. */
export const ANY_METHOD = /.+/

/** A handler for requests of `method` to the `base` origin (`*`: any) whose raw pathname passes `test`. */
export const onPath = (
  method: HttpHandlerMethod,
  base: string,
  test: (pathname: string) => boolean,
  resolver: (request: Request) => Response | undefined | Promise<Response | undefined>,
): HttpHandler => new PathHandler(method, (url) => (base === '*' || url.origin === base) && test(url.pathname), ({ request }) => resolver(request))

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
