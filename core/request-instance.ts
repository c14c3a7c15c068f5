import { httpError } from '../fastapi/http/responses.js'
import { MockInstance } from './instance/instance.js'
import { SnapshotError, TAKE_ONE_OVER_HTTP } from './instance/snapshots.js'
import { foreignSender, type ControlGuard } from './control-guard.js'
import { SESSION_FROM_HEADER, SESSION_HEADER, type Sessions, type SessionTransport } from './instance/sessions.js'

/**
 * The instance a request works on: `backend` itself, or its session's; a malformed session key
 * answers 400. With a `guard`, a request from a foreign page (see {@link foreignSender}) may
 * use a session that exists but not start one (403): starting one could let the developer's go.
 */
export function instanceResolver(backend: MockInstance | Sessions, transport: SessionTransport, guard?: ControlGuard) {
  if (backend instanceof MockInstance) {
    const instance = Promise.resolve(backend)
    return (): Promise<MockInstance> => instance
  }
  return async (request: Request): Promise<MockInstance> => {
    const key = transport.keyOf(request)
    if ('invalid' in key)
      throw httpError(400, `Invalid ${key.named}: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -`)
    if (guard && key.key !== undefined && !backend.has(key.key)) refuseForeign(request, key.key, guard)
    const from = request.headers.get(SESSION_FROM_HEADER)
    if (from === null) return backend.instance(key.key)
    if (key.key === undefined)
      throw httpError(
        400,
        `${SESSION_FROM_HEADER} names the snapshot a new session starts from: name the session too (${SESSION_HEADER})`,
      )
    return backend.instance(key.key, (created) => startFrom(created, from))
  }
}

/** Refuses (403) a foreign page's request that would start session `key`. */
function refuseForeign(request: Request, key: string, guard: ControlGuard): void {
  const sender = foreignSender(request, guard)
  if (sender === undefined) return
  const trust = sender.includes('://') ? ` Start the mock with --allow-origin ${sender} to trust that page.` : ''
  throw httpError(
    403,
    `Sessions are started by the developer's own pages and tools: ${sender} may use session ` +
      `${JSON.stringify(key)} once it exists, not start it.${trust}`,
  )
}

/** A new session's world from a snapshot: an unknown one answers 404 (and the session is not kept). */
async function startFrom(created: MockInstance, snapshot: string): Promise<void> {
  try {
    await created.restoreSnapshot(snapshot)
  } catch (error) {
    if (error instanceof SnapshotError) throw httpError(404, `${error.message}: ${TAKE_ONE_OVER_HTTP}`)
    throw error
  }
}
