import { bypass, http, type RequestHandler } from 'msw'
import { type ForwardRoute, type ForwardTimeouts, DEFAULT_FORWARD_TIMEOUTS, isUnder } from '../core/forward-routes.js'
import type { MockInstance } from '../core/instance/instance.js'
import { CONNECTION_HEADERS } from '../core/connection-headers.js'

/**
 * The connection's own headers, and those `fetch` made untrue: it decoded the body, so the answer's length and
 * encoding are no longer those of the body handed on.
 */
const NOT_HANDED_ON = new Set([...CONNECTION_HEADERS, 'content-encoding', 'content-length'])

/**
 * msw handlers sending requests under a forwarded prefix of `baseUrl` to their real server with `fetch`
 * (`bypass`, so msw lets it through), journaled in `instance`. In-process the answer is the server's status,
 * headers and body, decoded: `fetch` undoes a content-encoding, so it comes back as a `Response`, not byte for
 * byte as the standalone server hands it on. The proxy's timeouts bound the whole exchange (504), and the
 * client's abort aborts it.
 */
export function forwardHandlers(
  routes: readonly ForwardRoute[],
  baseUrl: string,
  instance: MockInstance,
  timeouts: Partial<ForwardTimeouts> = {},
): RequestHandler[] {
  if (routes.length === 0) return []
  const { connectTimeoutMs, answerTimeoutMs } = { ...DEFAULT_FORWARD_TIMEOUTS, ...timeouts }
  return [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const url = new URL(request.url)
      const route = routes.find((candidate) => isUnder(url.pathname, candidate.prefix))
      if (!route) return undefined
      const started = Date.now()
      const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.clone().arrayBuffer()
      const target = new URL(`${route.target.pathname.replace(/\/+$/, '')}${url.pathname}${url.search}`, route.target)
      const limit = AbortSignal.timeout(connectTimeoutMs + answerTimeoutMs)
      let answer: Response
      let answered = 0
      try {
        const sent = new Request(target, { method: request.method, headers: request.headers, body, redirect: 'manual' })
        const got = await fetch(bypass(sent), { signal: AbortSignal.any([request.signal, limit]) })
        const headers = new Headers([...got.headers].filter(([name]) => !NOT_HANDED_ON.has(name)))
        const bytes = got.status === 204 || got.status === 304 ? null : await got.arrayBuffer()
        answered = bytes?.byteLength ?? 0
        answer = new Response(bytes, { status: got.status, statusText: got.statusText, headers })
      } catch (error) {
        answer = limit.aborted
          ? Response.json(
              {
                detail: `The target took too long: ${target.origin} did not answer within ${connectTimeoutMs + answerTimeoutMs} ms (forwardTimeouts).`,
              },
              { status: 504 },
            )
          : Response.json(
              { detail: `The mock could not reach the target ${target.origin}: ${(error as Error).message}` },
              { status: 502 },
            )
      }
      instance.journal.record({
        time: new Date(started).toISOString(),
        method: request.method,
        url: target,
        status: answer.status,
        duration_ms: Date.now() - started,
        requestHeaders: request.headers,
        requestBody: body?.byteLength ? new Uint8Array(body) : undefined,
        responseHeaders: answer.headers,
        responseBytes: answered,
      })
      return answer
    }),
  ]
}
