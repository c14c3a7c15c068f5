import { answer, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { Sessions } from '../../core/instance/sessions.js'

/**
 * `GET /__mock/sessions`: the session worlds kept, least recently used (the next dropped) first,
 * and how many are kept at most. `scenario`: the scenarios selected, comma-separated (`null`: none); `writes` counts the
 * API requests that changed the session's world (answered 2xx to another method than GET, HEAD
 * or OPTIONS). A core serving one world (msw's hosts) has no sessions.
 * @example {"limit":100,"sessions":[{"key":"worker-1","scenario":null,"last_used":"2026-05-01T10:00:00.000Z","writes":2}]}
 */
export async function listSessions(sessions: Sessions | undefined): Promise<Response> {
  const kept = (await sessions?.list()) ?? []
  return jsonResponse(200, {
    limit: sessions?.limit ?? 0,
    sessions: kept.map(({ key, lastUsed, instance }) => ({
      key,
      scenario: instance.scenarios.names.join(',') || null,
      last_used: lastUsed.toISOString(),
      writes: instance.journal.writes,
    })),
  })
}

/** `DELETE /__mock/sessions/{key}`: 204, or FastAPI's 404 `{"detail": ...}` for a session not kept. */
export function dropSession(sessions: Sessions | undefined, key: string): Response {
  if (!sessions?.drop(key)) throw httpError(404, `No session named ${JSON.stringify(key)}`)
  return answer(null, 204, {})
}
