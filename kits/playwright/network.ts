import type { BrowserContext, Request as PlaywrightRequest, Route } from '@playwright/test'
import { getResponse, isCommonAssetRequest, RequestHandler, WebSocketHandler, type AnyHandler } from 'msw'
import { NetworkEmitter, type NetworkEvents } from './events.js'
import { isPassthrough, resetHandler, restoreHandler } from './msw-adapter.js'
import { MAX_REDIRECTS, redirectedRequest, type SentRequest, sentRequest, toFetchRequest } from './redirects.js'

/** The handlers a browser context's requests are answered by, as msw's `setupServer` has them. */
export interface NetworkFixture {
  /** Starts answering the context's requests. */
  enable(): Promise<void>
  /** Stops answering them; the context's requests go out as if the fixture had never been. */
  disable(): Promise<void>
  /** Prepends handlers: they come before the ones there already. */
  use(...handlers: AnyHandler[]): void
  /** Back to the first handlers (or to these, which become the first handlers). */
  resetHandlers(...handlers: AnyHandler[]): void
  /** Re-arms the `{ once: true }` handlers that were used. */
  restoreHandlers(): void
  listHandlers(): ReadonlyArray<AnyHandler>
  readonly events: NetworkEvents
}

/**
 * Answers a browser context's requests in the test process with msw handlers: Playwright's
 * `context.route` hands each request to msw's `getResponse`, and what no handler answers, or a
 * handler passes through, goes on to the next route or the network (`route.fallback()`). No
 * service worker is involved. Asset requests (scripts, styles, images, fonts) are passed on
 * unasked, as `@msw/playwright` does: routing them all through the handlers slows Playwright down.
 */
export function defineNetworkFixture(options: { context: BrowserContext; handlers: AnyHandler[] }): NetworkFixture {
  return new ContextNetwork(options.context, options.handlers)
}

/**
 * Every request of the context: a RegExp, since Playwright's `unroute` finds a route by its URL
 * pattern and handler, and the context's own routes may use the same pattern.
 */
const EVERY_REQUEST = /.+/

class ContextNetwork implements NetworkFixture {
  readonly events = new NetworkEmitter()
  #first: AnyHandler[]
  #current: AnyHandler[]

  constructor(
    private readonly context: BrowserContext,
    handlers: AnyHandler[],
  ) {
    this.#first = checked(handlers, 'defineNetworkFixture')
    this.#current = [...this.#first]
  }

  async enable(): Promise<void> {
    await this.context.route(EVERY_REQUEST, this.#route)
  }

  async disable(): Promise<void> {
    this.events.removeAllListeners()
    await this.context.unroute(EVERY_REQUEST, this.#route)
  }

  use(...handlers: AnyHandler[]): void {
    this.#current = [...checked(handlers, 'use'), ...this.#current]
  }

  resetHandlers(...handlers: AnyHandler[]): void {
    for (const handler of this.#current) resetHandler(handler)
    if (handlers.length > 0) this.#first = checked(handlers, 'resetHandlers')
    this.#current = [...this.#first]
  }

  restoreHandlers(): void {
    for (const handler of this.#current) restoreHandler(handler)
  }

  listHandlers(): ReadonlyArray<AnyHandler> {
    return Object.freeze([...this.#current])
  }

  readonly #route = async (route: Route, request: PlaywrightRequest): Promise<void> => {
    const sent = await sentRequest(request)
    if (isCommonAssetRequest(toFetchRequest(sent))) return settle(route.fallback())
    const referer = request.headers().referer
    const first = await this.#answer(toFetchRequest(sent), referer)
    if (!first) return settle(route.fallback())
    const { response, setCookies } = await this.#followRedirects(sent, first, referer)
    // `HttpResponse.error()`, or a redirect loop: the page sees a network error.
    if (response.status === 0) return settle(route.abort())
    return settle(fulfil(route, response, setCookies))
  }

  /**
   * The answer the page gets once the browser has followed the mock's redirects. Playwright routes no redirect's
   * follow-up, so a 3xx fulfilled as it is sent the follow-up past the mock (FastAPI's 307 to the trailing slash
   * reached the page's own server). A redirect to the request's origin that the handlers answer is followed here, and
   * the first request is fulfilled with where it ends; one they do not answer (another origin, a passthrough) is
   * fulfilled as it is, and the browser follows it to the network. The `Set-Cookie`s of the redirects come with the
   * final answer.
   */
  async #followRedirects(
    sent: SentRequest,
    response: Response,
    referer: string | undefined,
  ): Promise<{ response: Response; setCookies: string[] }> {
    const setCookies: string[] = []
    for (let followed = 0; ; followed++) {
      const next = response.status === 0 ? undefined : redirectedRequest(sent, response)
      if (!next) return { response, setCookies }
      if (followed === MAX_REDIRECTS) return { response: Response.error(), setCookies }
      const answer = await this.#answer(toFetchRequest(next), referer)
      if (!answer) return { response, setCookies }
      setCookies.push(...response.headers.getSetCookie())
      sent = next
      response = answer
    }
  }

  /** The handlers' answer, or undefined to pass the request on; reported as msw reports it. */
  async #answer(request: Request, referer: string | undefined): Promise<Response | undefined> {
    const requestId = crypto.randomUUID()
    const event = { request, requestId }
    this.events.emit('request:start', event)
    // Relative handler paths (`/v1/personas`) resolve against the page that sent the request; `quiet`
    // keeps msw from logging (an `sse` handler would, as a worker does).
    const context = { baseUrl: referer ? new URL(referer).origin : undefined, quiet: true }
    let response: Response | undefined
    try {
      response = await getResponse(this.#current.filter(isRequestHandler), request, context)
    } catch (error) {
      this.events.emit('unhandledException', { ...event, error: error as Error })
      throw error
    }
    if (response && isPassthrough(response)) response = undefined
    else if (response) this.events.emit('request:match', event)
    else this.events.emit('request:unhandled', event)
    this.events.emit('request:end', event)
    // A copy, so a listener that reads the body leaves it for the page.
    if (response && this.events.listens('response:mocked'))
      this.events.emit('response:mocked', { ...event, response: response.clone() })
    return response
  }
}

const isRequestHandler = (handler: AnyHandler): handler is RequestHandler => handler instanceof RequestHandler

/** The handlers, once checked for what the fixture cannot route. */
function checked(handlers: AnyHandler[], method: string): AnyHandler[] {
  for (const handler of handlers) {
    if (Array.isArray(handler))
      throw new TypeError(`${method}() takes handlers, not an array of them: spread it (${method}(...handlers))`)
    if (handler instanceof WebSocketHandler)
      throw new TypeError(`${method}(): agent-console-mock/playwright routes HTTP requests only, not WebSockets`)
  }
  return handlers
}

/**
 * Hands the answer to the page: status, headers, the body's bytes, and the cookies of the redirects it followed
 * before its own. Each Set-Cookie stays a header of its own: Playwright splits a `set-cookie` value on newlines, where
 * a plain object of headers would keep only the last. The status text is the browser's for the status (Playwright's
 * `fulfill` has no status text).
 */
async function fulfil(route: Route, response: Response, earlierCookies: string[]): Promise<void> {
  const headers = Object.fromEntries(response.headers)
  const cookies = [...earlierCookies, ...response.headers.getSetCookie()]
  if (cookies.length > 0) headers['set-cookie'] = cookies.join('\n')
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  await route.fulfill({ status: response.status, headers, body })
}

/**
 * Settles a route, ignoring "Route is already handled!": Playwright throws it when a navigation
 * ended the request while the handlers were answering it (mswjs/playwright#35).
 */
async function settle(action: Promise<void>): Promise<void> {
  try {
    await action
  } catch (error) {
    if (error instanceof Error && /route is already handled/i.test(error.message)) return
    throw error
  }
}
