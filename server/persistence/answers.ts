import { httpError } from '../../fastapi/http/responses.js'
import { toResponse } from '../../fastapi/http/reply.js'
import { PATH_HEADER_OR_COOKIE_SESSIONS } from '../../core/instance/sessions.js'
import type { BeforeSend } from '../middleware.js'
import type { StatePersistence } from './index.js'

/** What a client can do about a write that failed, by its error code. */
const ADVICE: Record<string, string> = {
  ENOSPC: 'Free space on its disk, then send the request again.',
  EDQUOT: 'Free space on its disk (a quota is reached), then send the request again.',
  EROFS: 'Its file system turned read-only: make it writable (or restart the mock on another --state-file).',
  EACCES: 'Make the file and its folder writable, then send the request again.',
  EPERM: 'Make the file and its folder writable, then send the request again.',
}

/**
 * The server's last step before an answer of the default world is sent: it waits until every
 * change the answer may show is on disk. When changes were undone while it was handled (they
 * could not be written: its own change, if it made one, may be among them), a successful answer
 * becomes 503 saying what failed and what to do. Which change a request made is not tracked, so
 * on a failing disk an answer may be refused whose own change was kept; an acknowledged change is
 * never one that was undone. An error answer changed nothing and is sent as it is. Session worlds
 * are not persisted: their answers never wait.
 */
export function durableAnswers(persistence: StatePersistence) {
  return (request: Request): BeforeSend | undefined => {
    if (!onDefaultWorld(request)) return undefined
    // A change undone while the request was handled may be one it made, or one its answer shows.
    const undone = persistence.undone
    return (response) => {
      const refuse = () => (response.status < 300 ? refusal(persistence, response) : response)
      const written = persistence.commit()
      if (!written) return persistence.undone === undone ? response : refuse()
      return written.then(() => (persistence.undone === undone ? response : refuse()), refuse)
    }
  }
}

function onDefaultWorld(request: Request): boolean {
  const key = PATH_HEADER_OR_COOKIE_SESSIONS.keyOf(request)
  return 'key' in key && key.key === undefined
}

/** 503 `{"detail": ...}`, with the CORS headers the answer had (so a page can read why). */
function refusal(persistence: StatePersistence, response: Response): Response {
  const error = persistence.lastFailure as NodeJS.ErrnoException
  const advice = ADVICE[error.code ?? ''] ?? 'Check the disk it is on, then send the request again.'
  const detail =
    `The change could not be written to the state file ${persistence.path} (${error.message}), ` +
    `so it was undone and is not kept. ${advice}`
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers)
    if (name.startsWith('access-control-') || name === 'vary') headers[name] = value
  return toResponse(httpError(503, detail, headers), true)
}
