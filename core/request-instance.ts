import { httpError } from '../fastapi/http/responses.js'
import { MockInstance } from './instance/instance.js'
import { SnapshotError } from './instance/snapshots.js'
import { SESSION_FROM_HEADER, SESSION_HEADER, type Sessions, type SessionTransport } from './instance/sessions.js'

/** The instance a request works on: `backend` itself, or its session's; a malformed session key answers 400. */
export function instanceResolver(backend: MockInstance | Sessions, transport: SessionTransport) {
  return async (request: Request): Promise<MockInstance> => {
    if (backend instanceof MockInstance) return backend
    const key = transport.keyOf(request)
    if ('invalid' in key)
      throw httpError(400, `Invalid ${key.named}: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -`)
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

/** A new session's world from a snapshot: an unknown one answers 404 (and the session is not kept). */
async function startFrom(created: MockInstance, snapshot: string): Promise<void> {
  try {
    await created.restoreSnapshot(snapshot)
  } catch (error) {
    if (error instanceof SnapshotError) throw httpError(404, error.message)
    throw error
  }
}
