import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse, passthrough, type RequestHandler } from 'msw'
import { answerBytesOnly } from '../handlers/app.js'
import { headersInSetOrder, Reply, writtenBody, type Outcome } from '../fastapi/http/reply.js'
import { internalServerError } from '../fastapi/http/responses.js'
import { streamedBody } from '../fastapi/http/streaming-response.js'
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
      const answered = response
      try {
        const replaced = finish(response)
        response = replaced instanceof Promise ? await replaced : replaced
      } catch (error) {
        onError?.(error, req)
        response = internalServerError()
      }
      // A streamed answer replaced (refused) is never read: end it, so it frees what it holds.
      if (response !== answered) void streamedBody(answered)?.cancel()
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

/** Writes an answer to Node's response: status, every header (repeated Set-Cookie kept), body. */
export async function send(res: ServerResponse, response: Outcome, method: string | undefined): Promise<void> {
  if (response instanceof Reply) {
    res.statusCode = response.status
    // In the order they were set, as Starlette writes them (`www-authenticate` before `content-length` on a 401).
    for (const [name, value] of response.headers.inSetOrder()) res.setHeader(name, value)
    return endWith(res, response.bytes, method)
  }
  const streamed = streamedBody(response)
  // Read before anything is written: a body that cannot be read leaves nothing of this answer behind its 500.
  const body = streamed ? null : (writtenBody(response) ?? new Uint8Array(await response.arrayBuffer()))
  res.statusCode = response.status
  for (const [name, value] of headersInSetOrder(response)) if (name !== 'set-cookie') res.setHeader(name, value)
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader('set-cookie', cookies)
  if (streamed && method === 'HEAD') void streamed.cancel()
  else if (streamed) return sendStream(res, streamed)
  endWith(res, body, method)
}

/**
 * Sends `response` in place of an answer that failed before it was sent: nothing the failed one set (its headers, its
 * content-length) goes with it, but the connection's header, which is the transport's (a body left unread closes it).
 */
export function sendInstead(res: ServerResponse, response: Outcome, method: string | undefined): Promise<void> {
  for (const name of res.getHeaderNames()) if (name !== 'connection') res.removeHeader(name)
  return send(res, response, method)
}

/** Ends the response with the body, if any (none for HEAD). */
function endWith(res: ServerResponse, body: Uint8Array | null, method: string | undefined): void {
  if (method === 'HEAD' || !body || body.byteLength === 0) res.end()
  else res.end(body)
}

/**
 * Writes a streamed answer (chunked) with backpressure both ways: the next chunk is asked for
 * only once the socket took the last one (`drain`), so a client that reads slowly holds one chunk
 * and its socket's buffers, never the whole body. A client that goes away cancels the stream; a
 * stream that fails (an export dropped for being idle) closes the connection, so the client sees
 * a cut body, never a complete-looking one.
 */
async function sendStream(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader()
  const closed = new Promise<'closed'>((resolve) => res.once('close', () => resolve('closed')))
  // The stream may fail while the socket is full (an export dropped for being idle): stop waiting then.
  const failed = reader.closed.then(
    () => 'ended' as const,
    () => 'failed' as const,
  )
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), closed])
      if (next === 'closed') return void (await reader.cancel())
      if (next.done) return void res.end()
      if (res.write(next.value)) continue
      const drained = new Promise<'drained'>((resolve) => res.once('drain', () => resolve('drained')))
      const waited = await Promise.race([drained, closed, failed])
      if (waited === 'closed') return void (await reader.cancel())
      if (waited === 'failed') return void res.destroy()
    }
  } catch {
    res.destroy()
  }
}
