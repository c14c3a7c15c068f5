import type { MockServer } from 'agent-console-mock/node'
import { readAnswer, type Answer as RawAnswer } from './answer.js'

export interface Answer extends RawAnswer {
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any
}

/** A tiny HTTP client for the mock: bearer tokens, JSON bodies, the whole answer read once. */
export function client(mock: MockServer) {
  async function send(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const init: RequestInit = { method, redirect: 'manual', headers: { ...headers } }
    if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`
    if (body !== undefined) {
      ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
      init.body =
        typeof body === 'string' || body instanceof Uint8Array ? (body as RequestInit['body']) : JSON.stringify(body)
    }
    // Paths are appended as they are, so that `//v1/...` stays a path (new URL would read a host).
    const res = await fetch(mock.baseUrl + path, init)
    const answer = await readAnswer(res)
    return { ...answer, body: answer.json }
  }
  return {
    get: (path: string, token?: string, headers?: Record<string, string>) =>
      send('GET', path, token, undefined, headers),
    post: (path: string, body: unknown, token?: string, headers?: Record<string, string>) =>
      send('POST', path, token, body, headers),
    send,
  }
}
