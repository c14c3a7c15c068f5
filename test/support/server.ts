import { readAnswer } from './answer.js'
import { startServer, type RunningServer, type ServerOptions } from 'agent-console-mock/server'

/** Errors the server logged during a test; nothing else is printed. */
export const loggedErrors: string[] = []

/** A server on a free loopback port that logs only into `loggedErrors`. */
export function startTestServer(options: ServerOptions = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    logger: {
      info: () => undefined,
      error: (message, error) => void loggedErrors.push(`${message} ${String(error ?? '')}`),
    },
    ...options,
  })
}

/** fetch against a running server, with a bearer token and JSON. */
export function http(running: RunningServer) {
  return async (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
    const headers = new Headers(init.headers)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    let body = init.body
    // The control API takes JSON bodies only (a guard against cross-site requests): say so by default.
    if (path.startsWith('/__mock/') && typeof body === 'string' && !headers.has('content-type')) {
      headers.set('content-type', 'application/json')
    }
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
      body = JSON.stringify(init.json)
    }
    return readAnswer(await fetch(running.url + path, { redirect: 'manual', ...init, headers, body }))
  }
}

/** Adds values to the first dimension of the default world, as its super admin. */
export const bulkAdd = (running: RunningServer, values: string[]) =>
  http(running)(`/v1/demographics/${running.sessions.primary.fixtures.dimensions[0]!.id}/values/bulk`, {
    method: 'POST',
    token: running.sessions.primary.fixtures.tokens.super_admin,
    json: { values: values.map((value) => ({ value })) },
  })

/** The values of the default world. */
export const valuesOf = (running: RunningServer) =>
  new Set(running.sessions.primary.world.values.all().map((value) => value.value))
