import type { MockInstance } from './instance.js'

export const SESSION_HEADER = 'x-mock-session'
export const SESSION_COOKIE = 'mock_session'
/** How many session worlds are kept; the least recently used is dropped past it. */
export const DEFAULT_SESSION_LIMIT = 100
const SESSION_KEY = /^[A-Za-z0-9._~-]{1,128}$/

type SessionKey = { key: string | undefined } | { invalid: string }

/**
 * Reads the session a request asks for: the `X-Mock-Session` header, else the
 * `mock_session` cookie; none means the shared default world.
 */
function sessionKey(request: Request): SessionKey {
  const key = request.headers.get(SESSION_HEADER) ?? cookie(request.headers.get('cookie'), SESSION_COOKIE)
  if (key === undefined) return { key: undefined }
  return SESSION_KEY.test(key) ? { key } : { invalid: key }
}

/** How a host carries the session a request works on: a plain function, and the headers it reads. */
export interface SessionTransport {
  /** The session a request asks for (`{ key: undefined }`: the default world). */
  keyOf(request: Request): SessionKey
  /** Request headers the transport reads, which CORS must let through. */
  readonly headers: readonly string[]
}

/** Sessions named by the `X-Mock-Session` header or the `mock_session` cookie. */
export const HEADER_OR_COOKIE_SESSIONS: SessionTransport = { keyOf: sessionKey, headers: [SESSION_HEADER] }

function cookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/**
 * The default instance and one instance per session key, created on first use from the
 * default's seed and size, so parallel test workers never see each other's writes, resets
 * or faults. At most `limit` sessions are kept (least recently used dropped).
 */
export class Sessions {
  #sessions = new Map<string, Promise<MockInstance>>()

  constructor(
    readonly primary: MockInstance,
    private readonly spawn: (primary: MockInstance) => Promise<MockInstance>,
    readonly limit = DEFAULT_SESSION_LIMIT,
  ) {}

  get size(): number {
    return this.#sessions.size
  }

  /** The instance for a session key (undefined: the default one). */
  async instance(key: string | undefined): Promise<MockInstance> {
    if (key === undefined) return this.primary
    let session = this.#sessions.get(key)
    if (session) {
      this.#sessions.delete(key) // re-inserted below: Map order is the recency order
    } else {
      session = this.spawn(this.primary)
      session.catch(() => this.#sessions.delete(key))
    }
    this.#sessions.set(key, session)
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.limit) break
      this.#sessions.delete(oldest)
    }
    return session
  }
}
