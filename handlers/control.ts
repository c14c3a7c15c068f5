import { HttpResponse, type HttpHandler } from 'msw'
import { z } from 'zod'
import { Claims } from '../auth/claims.js'
import { mintToken } from '../auth/tokens.js'
import { MAX_PERSONAS_PER_TEAM } from '../factories/world.js'
import { FaultsConfig } from '../mock/faults.js'
import type { MockInstance } from '../mock/instance.js'
import { StateError } from '../mock/state.js'
import { encodedJsonResponse, httpError, jsonResponse } from './fastapi/responses.js'
import type { HandlerSettings } from './index.js'
import { ANY_METHOD, atPath, onPath, urlOf } from './match.js'

/** The path prefix of the control API; it is not part of the API and not in /openapi.json. */
export const CONTROL_PREFIX = '/__mock'

const ResetBody = z.object({ seed: z.int().optional(), personas: z.int().min(0).max(MAX_PERSONAS_PER_TEAM).optional() }).strict()
const TokenBody = Claims.extend({ exp: z.number().nullable().optional() }).loose()
const JournalQuery = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  status: z.coerce.number().int().optional(),
  limit: z.coerce.number().int().min(1).optional(),
})

type ControlRoute = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; answer: (request: Request, instance: MockInstance) => Promise<Response> | Response }

/**
 * The control API: health, fixtures, reset, tokens, faults, the request journal and the
 * whole state, on the request's instance (so each session controls only its own world).
 * Switched off, every control path answers 404 and says so.
 */
export function createControlHandlers(settings: HandlerSettings): HttpHandler[] {
  const underPrefix = (answer: () => Response) => onPath(ANY_METHOD, settings.base, (pathname) => pathname.startsWith(`${CONTROL_PREFIX}/`), answer)
  if (!settings.control) {
    return [underPrefix(() => httpError(404, 'The control API is switched off (--no-control)'))]
  }
  const routes: ControlRoute[] = [
    { method: 'GET', path: '/health', answer: () => jsonResponse(200, { status: 'ok' }) },
    { method: 'GET', path: '/fixtures', answer: (_, instance) => jsonResponse(200, instance.fixtures) },
    { method: 'POST', path: '/reset', answer: reset },
    { method: 'POST', path: '/tokens', answer: (request) => token(request, settings.jwtSecret) },
    { method: 'GET', path: '/faults', answer: (_, instance) => jsonResponse(200, instance.faults.config) },
    { method: 'PUT', path: '/faults', answer: setFaults },
    { method: 'GET', path: '/requests', answer: journal },
    { method: 'DELETE', path: '/requests', answer: (_, instance) => (instance.journal.clear(), new HttpResponse(null, { status: 204 })) },
    { method: 'GET', path: '/state', answer: (_, instance) => encodedJsonResponse(200, instance.exportState()) },
    { method: 'PUT', path: '/state', answer: importState },
  ]
  return [
    ...routes.map(({ method, path, answer }) =>
      atPath(method, settings.base, `${CONTROL_PREFIX}${path}`, async (request) => {
        try {
          return await answer(request, await settings.instanceFor(request))
        } catch (thrown) {
          if (thrown instanceof Response) return thrown
          throw thrown
        }
      }),
    ),
    underPrefix(() => httpError(404, 'Not Found')),
  ]
}

async function reset(request: Request, instance: MockInstance) {
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

async function setFaults(request: Request, instance: MockInstance) {
  const config = FaultsConfig.safeParse(await readJson(request))
  if (!config.success) throw badRequest(config.error)
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}

function journal(request: Request, instance: MockInstance) {
  const query = JournalQuery.safeParse(Object.fromEntries(urlOf(request).searchParams))
  if (!query.success) throw badRequest(query.error)
  return jsonResponse(200, { requests: instance.journal.list(query.data) })
}

async function importState(request: Request, instance: MockInstance) {
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
