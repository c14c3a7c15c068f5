import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse, passthrough, type RequestHandler } from 'msw'
import { answerBytesOnly } from '../../core/index.js'
import { internalServerError, writtenBody } from '../../fastapi/responses.js'
import { toFetchRequest } from './node-request.js'

/** What a request's answer goes through before it is sent (see {@link MiddlewareOptions.beforeSend}). */
export type BeforeSend = (response: Response) => Response | Promise<Response>

export interface MiddlewareOptions {
  /** The msw handlers to answer with, read on every request (so overrides apply at once). */
  handlers: () => readonly RequestHandler[]
  /**
   * Called when a request arrives; the function it returns gets the handlers' answer before it is
   * sent, and what that returns is sent instead (persistence waits there until the changes the
   * answer may show are on disk, or answers 503 when they could not be written).
   */
  beforeSend?: (request: Request) => BeforeSend | undefined
  /** Called after every answer the handlers gave has been written. */
  afterResponse?: () => void
  /** Called with every exception a handler throws (the client gets Starlette's 500). */
  onError?: (error: unknown, request: IncomingMessage) => void
}

/**
 * Express (or plain Node) middleware that answers with msw request handlers through msw's
 * public `getResponse`, in the manner of `@mswjs/http-middleware`: the standalone server
 * runs exactly the handlers the browser and Node tests run. A request no handler answers,
 * or one a handler passes through (`passthrough()`), goes to `next()`; `Response.error()`
 * closes the connection.
 * @example app.use(mockMiddleware({ handlers: () => createHandlers({ instance, claim: 'all' }) }))
 */
export function mockMiddleware({ handlers, beforeSend, afterResponse, onError }: MiddlewareOptions) {
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): Promise<void> => {
    let response: Response | undefined
    let finish: BeforeSend | undefined
    try {
      const request = toFetchRequest(req)
      answerBytesOnly(request)
      finish = beforeSend?.(request)
      response = await getResponse([...handlers()], request, { baseUrl: new URL(request.url).origin })
    } catch (error) {
      onError?.(error, req)
      response = internalServerError()
    }
    if (!response || isPassthrough(response)) return next()
    if (response.type === 'error') return void res.destroy()
    if (finish) {
      try {
        const replaced = finish(response)
        response = replaced instanceof Promise ? await replaced : replaced
      } catch (error) {
        onError?.(error, req)
        response = internalServerError()
      }
    }
    // A body left unread (refused as too large) would hold up the next request on this connection.
    if (!req.complete) res.setHeader('connection', 'close')
    await send(res, response, req.method)
    afterResponse?.()
  }
}

const PASSTHROUGH = passthrough()

/** Whether a handler answered with `passthrough()`: the answer has that response's status and headers. */
function isPassthrough(response: Response): boolean {
  if (response.status !== PASSTHROUGH.status || response.statusText !== PASSTHROUGH.statusText) return false
  for (const [name, value] of PASSTHROUGH.headers) if (response.headers.get(name) !== value) return false
  return true
}

/** Writes a Fetch response to Node's response: status, every header (repeated Set-Cookie kept), body. */
export async function send(res: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value)
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader('set-cookie', cookies)
  const body = writtenBody(response) ?? new Uint8Array(await response.arrayBuffer())
  if (method === 'HEAD' || body.byteLength === 0) res.end()
  else res.end(body)
}
