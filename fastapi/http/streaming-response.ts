import { answer } from './responses.js'

/**
 * Where a streamed answer keeps its stream for a host that writes it to a socket itself (as
 * `writtenBody` does for bytes): on the response, so it needs no registry.
 */
const STREAMED_BODY = Symbol('agent-console-mock streamed body')
type StreamedResponse = Response & { [STREAMED_BODY]?: ReadableStream<Uint8Array> }

/**
 * Starlette's `StreamingResponse` of JSON: the body is written as it is read, with no
 * `content-length` (the server sends it chunked), `content-type: application/json`.
 * @example streamingJsonResponse(200, stateStream(state, { idleMs: 60_000 }))
 */
export function streamingJsonResponse(status: number, body: ReadableStream<Uint8Array<ArrayBuffer>>): Response {
  const response: StreamedResponse = answer(body, status, { 'content-type': 'application/json' })
  response[STREAMED_BODY] = body
  return response
}

/**
 * The body of an answer made by {@link streamingJsonResponse}, for a host to send chunk by chunk
 * with backpressure; `undefined` for any other answer (which a host reads whole, as before).
 */
export const streamedBody = (response: Response): ReadableStream<Uint8Array> | undefined =>
  (response as StreamedResponse)[STREAMED_BODY]
