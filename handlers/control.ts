import { z } from 'zod'
import { Claims } from '../auth/claims.js'
import { mintToken } from '../auth/tokens.js'
import { MAX_PERSONAS_PER_TEAM } from '../factories/world.js'
import { answer, encodedJsonResponse, httpError, jsonResponse } from '../fastapi/responses.js'
import { FaultsConfig } from '../mock/faults.js'
import type { MockInstance } from '../mock/instance.js'
import { StateError } from '../mock/state.js'

/** The path prefix of the control API; it is not part of the API and not in /openapi.json. */
export const CONTROL_PREFIX = '/__mock'

const ResetBody = z
  .object({ seed: z.int().optional(), personas: z.int().min(0).max(MAX_PERSONAS_PER_TEAM).optional() })
  .strict()
const TokenBody = Claims.extend({ exp: z.number().nullable().optional() }).loose()
const JournalQuery = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  status: z.coerce.number().int().optional(),
  limit: z.coerce.number().int().min(1).optional(),
})

/** What the control API needs of the core. */
export interface ControlSettings {
  /** Serve the control API; switched off, every control path answers 404 and says so. */
  control: boolean
  jwtSecret: string
  instanceFor: (request: Request) => Promise<MockInstance>
}

type ControlAnswer = (request: Request, url: URL, instance: MockInstance) => Promise<Response> | Response

/**
 * The control API: health, fixtures, reset, tokens, faults, the request journal and the
 * whole state, on the request's instance (so each session controls only its own world).
 * @returns the answer to a request under {@link CONTROL_PREFIX}
 */
export function createControl(settings: ControlSettings) {
  const routes = new Map<string, ControlAnswer>([
    ['GET /health', () => jsonResponse(200, { status: 'ok' })],
    ['GET /fixtures', (_, __, instance) => jsonResponse(200, instance.fixtures)],
    ['POST /reset', reset],
    ['POST /tokens', (request) => token(request, settings.jwtSecret)],
    ['GET /faults', (_, __, instance) => jsonResponse(200, instance.faults.config)],
    ['PUT /faults', setFaults],
    ['GET /requests', journal],
    ['DELETE /requests', (_, __, instance) => (instance.journal.clear(), answer(null, 204, {}))],
    ['GET /state', (_, __, instance) => encodedJsonResponse(200, instance.exportState())],
    ['PUT /state', importState],
  ])
  return async (request: Request, url: URL): Promise<Response> => {
    if (!settings.control) return httpError(404, 'The control API is switched off (--no-control)')
    // HEAD is GET without the body (the core drops it), as Starlette answers its own routes.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const route = routes.get(`${method} ${url.pathname.slice(CONTROL_PREFIX.length)}`)
    if (!route) return httpError(404, 'Not Found')
    return route(request, url, await settings.instanceFor(request))
  }
}

async function reset(request: Request, _url: URL, instance: MockInstance) {
  const body = ResetBody.safeParse((await readJson(request)) ?? {})
  if (!body.success) throw badRequest(body.error)
  await instance.reset({ seed: body.data.seed, personasPerTeam: body.data.personas })
  return jsonResponse(200, instance.fixtures)
}

async function token(request: Request, secret: string) {
  const claims = TokenBody.safeParse(await readJson(request))
  if (!claims.success) throw badRequest(claims.error)
  return jsonResponse(200, { token: await mintToken(claims.data, secret) })
}

async function setFaults(request: Request, _url: URL, instance: MockInstance) {
  const config = FaultsConfig.safeParse(await readJson(request))
  if (!config.success) throw badRequest(config.error)
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}

function journal(_request: Request, url: URL, instance: MockInstance) {
  const query = JournalQuery.safeParse(Object.fromEntries(url.searchParams))
  if (!query.success) throw badRequest(query.error)
  return jsonResponse(200, { requests: instance.journal.list(query.data) })
}

async function importState(request: Request, _url: URL, instance: MockInstance) {
  try {
    await instance.importState(await request.text())
  } catch (error) {
    if (error instanceof StateError) throw httpError(400, `Invalid state: ${error.message}`)
    throw error
  }
  return jsonResponse(200, instance.fixtures)
}

/** The body as JSON; an empty body is `undefined`; anything else that is not JSON answers 400. */
async function readJson(request: Request): Promise<unknown> {
  const text = await request.text()
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw httpError(400, 'The body is not valid JSON')
  }
}

const badRequest = (error: z.ZodError) =>
  httpError(400, error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '))
