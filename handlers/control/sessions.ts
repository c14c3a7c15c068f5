import type { Outcome } from '../../fastapi/http/reply.js'
import { answer, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { Sessions } from '../../core/instance/sessions.js'
import type { ControlRoute } from './route.js'

/**
 * The server's session worlds (none where the core serves one world), about the server: no
 * session's world is created or touched. A key in the path is taken as sent, not decoded.
 */
export const sessionRoutes = (sessions: Sessions | undefined): ControlRoute[] => [
  {
    method: 'GET',
    path: '/sessions',
    description: 'the X-Mock-Session worlds kept: key, scenario, last used, writes',
    server: () => listSessions(sessions),
  },
  {
    method: 'DELETE',
    path: '/sessions/{key}',
    description: "drops a session's world; the key starts over from the seeded world when used again",
    server: ({ params }) => dropSession(sessions, params.key ?? ''),
  },
]

/**
 * `GET /__mock/sessions`: the session worlds kept, least recently used (the next dropped) first,
 * and how many are kept at most. `scenario`: the scenarios selected, comma-separated (`null`: none); `writes` counts the
 * API requests that changed the session's world (answered 2xx to another method than GET, HEAD
 * or OPTIONS). A core serving one world (msw's hosts) has no sessions.
 * @example {"limit":100,"sessions":[{"key":"worker-1","scenario":null,"last_used":"2026-05-01T10:00:00.000Z","writes":2}]}
 */
async function listSessions(sessions: Sessions | undefined): Promise<Outcome> {
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
function dropSession(sessions: Sessions | undefined, key: string): Outcome {
  if (!sessions?.drop(key)) throw httpError(404, `No session named ${JSON.stringify(key)}`)
  return answer(null, 204, {})
}
