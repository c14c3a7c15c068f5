import { http, HttpResponse, type HttpHandler } from 'msw'

/**
 * Building blocks for broken variants of the mock: msw handlers answered before the API's
 * (`use()`), which send the request on to the real handlers of the same server and
 * corrupt the answer, or answer themselves. The mock's code is never touched.
 */

/** Marks a request the override sends on, so the override lets it through to the real handlers. */
const PASS_THROUGH = 'x-contract-variant-pass-through'

export type Method = 'get' | 'post'
export type Json = any

/** Sends a request on to the real mock (the same server), optionally changed first. */
export async function forward(
  request: Request,
  change: { url?: (url: URL) => void; headers?: (headers: Headers) => void; body?: string } = {},
): Promise<Response> {
  const url = new URL(request.url)
  change.url?.(url)
  const headers = new Headers(request.headers)
  for (const name of ['content-length', 'host', 'connection']) headers.delete(name)
  headers.set(PASS_THROUGH, '1')
  change.headers?.(headers)
  const body = change.body ?? (request.method === 'GET' ? undefined : await request.clone().text())
  return fetch(url, { method: request.method, headers, body, redirect: 'manual' })
}

/** Answers one route instead of the mock; `undefined` lets the mock answer. */
export function override(
  method: Method,
  path: string,
  respond: (request: Request) => Promise<Response | undefined> | Response | undefined,
): HttpHandler {
  return http[method](`*${path}`, ({ request }) => (request.headers.has(PASS_THROUGH) ? undefined : respond(request)))
}

/** The real answer to a request, as JSON, with its status. */
export async function realAnswer(
  request: Request,
  change?: Parameters<typeof forward>[1],
): Promise<{ status: number; body: Json }> {
  const response = await forward(request, change)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

/**
 * Rewrites the JSON body of the real answers of one route (only 2xx answers unless `all`);
 * `change` may also return a whole other Response.
 */
export function rewrite(
  method: Method,
  path: string,
  change: (body: Json, request: Request, status: number) => Json,
  options: { all?: boolean } = {},
): HttpHandler {
  return override(method, path, async (request) => {
    const response = await forward(request)
    if (!options.all && !response.ok) return response
    const text = await response.text()
    const changed = await change(text ? JSON.parse(text) : undefined, request, response.status)
    return changed instanceof Response ? changed : HttpResponse.json(changed, { status: response.status })
  })
}

/** Sets (or, with null, deletes) query parameters of a URL. */
export function setParams(url: URL, params: Record<string, string | null>): void {
  for (const [name, value] of Object.entries(params)) {
    if (value === null) url.searchParams.delete(name)
    else url.searchParams.set(name, value)
  }
}

/** A query parameter of a request, as a number. */
export const numberParam = (request: Request, name: string, fallback: number) => {
  const value = new URL(request.url).searchParams.get(name)
  return value === null ? fallback : Number(value)
}

export const PERSONAS = '/v1/personas/'
export const RULES = '/v1/policies/:policyId/rules'
export const BULK = '/v1/demographics/:dimensionId/values/bulk'
export const OPENAPI = '/openapi.json'
