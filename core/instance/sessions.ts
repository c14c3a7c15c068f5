import type { World } from '../../model/world.js'
import { keptBaseWorlds, releaseUnusedBase } from './bases.js'
import type { MockInstance } from './instance.js'
import { FORK_BYTES, type MemoryBudget } from './memory-budget.js'
import { DEFAULT_SESSION_LIMIT } from '../limits.js'

export const SESSION_HEADER = 'x-mock-session'
/** Names the snapshot a new session starts from. */
export const SESSION_FROM_HEADER = 'x-mock-session-from'
export const SESSION_COOKIE = 'mock_session'
const SESSION_KEY = /^[A-Za-z0-9._~-]{1,128}$/

/** A request's session: a key (undefined: the default world), or a malformed one and what named it. */
type SessionKey = { key: string | undefined } | { invalid: string; named: string }

/**
 * Reads the session a request asks for: the `X-Mock-Session` header, else the
 * `mock_session` cookie; none means the shared default world. An empty cookie (`mock_session=`, as a page
 * clears one) names none either; a malformed key is named by where it came from.
 */
function sessionKey(request: Request): SessionKey {
  const header = request.headers.get(SESSION_HEADER)
  if (header !== null) return SESSION_KEY.test(header) ? { key: header } : { invalid: header, named: SESSION_HEADER }
  const key = cookie(request.headers.get('cookie'), SESSION_COOKIE)
  if (!key) return { key: undefined }
  return SESSION_KEY.test(key) ? { key } : { invalid: key, named: `${SESSION_COOKIE} cookie` }
}

/** How a host carries the session a request works on: a plain function, and the headers it reads. */
export interface SessionTransport {
  /** The session a request asks for (`{ key: undefined }`: the default world). */
  keyOf(request: Request): SessionKey
  /** Request headers the transport reads, which CORS must let through. */
  readonly headers: readonly string[]
  /**
   * The start of a path that names the session (`/__session/<key>`), which the core takes off
   * before routing and puts back in every URL it writes; `''` when the path names none.
   */
  pathPrefix?(pathname: string): string
}

/** Sessions named by the `X-Mock-Session` header or the `mock_session` cookie. */
export const HEADER_OR_COOKIE_SESSIONS: SessionTransport = {
  keyOf: sessionKey,
  headers: [SESSION_HEADER, SESSION_FROM_HEADER],
}

/** Where a path names its session: `/__session/<key>/v1/...` is `/v1/...` in session `<key>`. */
export const SESSION_PATH = '/__session/'

/** `/__session/<key>` at the start of a path (the key as written, valid or not); `''` when there is none. */
function sessionPathPrefix(pathname: string): string {
  if (!pathname.startsWith(SESSION_PATH)) return ''
  const end = pathname.indexOf('/', SESSION_PATH.length)
  return end === -1 ? pathname : pathname.slice(0, end)
}

/**
 * Sessions named by the path (`/__session/<key>/...`, for frameworks that fetch on the server
 * and cannot send a header per test), else as `transport` names them. The path wins over a
 * header or cookie that names another session.
 */
export function withPathSessions(transport: SessionTransport): SessionTransport {
  return {
    keyOf: (request) => {
      // Most requests name no session in their path: a substring test spares them parsing the URL.
      const prefix = request.url.includes(SESSION_PATH) ? sessionPathPrefix(new URL(request.url).pathname) : ''
      if (prefix === '') return transport.keyOf(request)
      const key = prefix.slice(SESSION_PATH.length)
      return SESSION_KEY.test(key)
        ? { key }
        : { invalid: key, named: `session key in the path (${SESSION_PATH}<key>/...)` }
    },
    headers: transport.headers,
    pathPrefix: sessionPathPrefix,
  }
}

/** What the core reads by default: the path, else the `X-Mock-Session` header, else the `mock_session` cookie. */
export const PATH_HEADER_OR_COOKIE_SESSIONS: SessionTransport = withPathSessions(HEADER_OR_COOKIE_SESSIONS)

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
  /** When each session was last named by a request (epoch milliseconds). */
  #lastUsed = new Map<string, number>()
  /** The sessions' instances once created: what a memory budget counts. */
  #created = new Map<string, MockInstance>()
  /**
   * What the journals, recorded contracts and overrides of the default instance and the created sessions hold,
   * kept as they grow and shrink: the budget reads it after every request, which a sum over the sessions would
   * make cost more with every session kept.
   */
  #heldBytes = 0

  /** With `budget`, new worlds beyond it first let the least recently used sessions go. */
  constructor(
    readonly primary: MockInstance,
    private readonly spawn: (primary: MockInstance) => Promise<MockInstance>,
    readonly limit = DEFAULT_SESSION_LIMIT,
    private readonly budget?: MemoryBudget,
  ) {
    this.#track(primary)
    budget?.watch({
      worlds: () => this.#worlds(),
      otherBytes: () => this.#heldBytes,
      evictOne: () => this.#evictOne(),
    })
  }

  /** What the journals, recorded contracts and overrides of the default instance and every session hold (estimated). */
  get heldBytes(): number {
    return this.#heldBytes
  }

  get size(): number {
    return this.#sessions.size
  }

  /** Whether a session of this key is kept (naming it would not create it). */
  has(key: string): boolean {
    return this.#sessions.has(key)
  }

  /**
   * Lets the least recently used sessions go while what is held (journals and recorded contracts
   * grow with every request) is past the memory budget; never the newest, never refused.
   */
  reclaim(): void {
    this.budget?.reclaim()
  }

  /**
   * The instance for a session key (undefined: the default one). A new session's instance is
   * handed to `prepare` first (e.g. to start from a snapshot); when that fails, it is not kept.
   */
  async instance(key: string | undefined, prepare?: (created: MockInstance) => Promise<void>): Promise<MockInstance> {
    if (key === undefined) return this.primary
    let session = this.#sessions.get(key)
    if (session) {
      this.#sessions.delete(key) // re-inserted below: Map order is the recency order
    } else {
      this.budget?.admit(FORK_BYTES, 'a new session')
      const spawned = this.spawn(this.primary).then(async (created) => (await prepare?.(created), created))
      session = spawned
      spawned.then(
        (instance) => this.#sessions.get(key) === spawned && this.#created.set(key, this.#track(instance)),
        () => this.#sessions.get(key) === spawned && this.#sessions.delete(key),
      )
    }
    this.#sessions.set(key, session)
    this.#lastUsed.set(key, Date.now())
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.limit) break
      this.#drop(oldest)
    }
    return session
  }

  /**
   * The sessions kept, least recently used (the next to be dropped) first. A session whose
   * world is still being created is waited for; one whose creation failed is left out.
   */
  async list(): Promise<SessionInfo[]> {
    const kept = [...this.#sessions]
    const worlds = await Promise.allSettled(kept.map(([, session]) => session))
    return kept.flatMap(([key], index) => {
      const world = worlds[index]
      if (world?.status !== 'fulfilled') return []
      return [{ key, lastUsed: new Date(this.#lastUsed.get(key) ?? 0), instance: world.value }]
    })
  }

  /**
   * Forgets a session: its world is dropped, and the key starts over from the seeded world
   * when it is named again (requests already under way finish on the old world).
   * @returns whether there was such a session
   */
  drop(key: string): boolean {
    const known = this.#sessions.has(key)
    this.#drop(key)
    return known
  }

  #drop(key: string): void {
    const created = this.#created.get(key)
    if (created) this.#untrack(created)
    this.#sessions.delete(key)
    this.#created.delete(key)
    this.#lastUsed.delete(key)
  }

  /** Counts what the instance's journal, recorder and overrides hold, and from now on what they add or let go. */
  #track(instance: MockInstance): MockInstance {
    const { journal, recorder, overrides } = instance
    this.#heldBytes += journal.bytes + recorder.bytes + overrides.bytes
    journal.onBytes =
      recorder.onBytes =
      overrides.onBytes =
        (delta) => {
          this.#heldBytes += delta
        }
    return instance
  }

  /** Stops counting a dropped session's journal, recorder and overrides (requests under way may still write them). */
  #untrack({ journal, recorder, overrides }: MockInstance): void {
    journal.onBytes = recorder.onBytes = overrides.onBytes = undefined
    this.#heldBytes -= journal.bytes + recorder.bytes + overrides.bytes
  }

  #instances(): MockInstance[] {
    return [this.primary, ...this.#created.values()]
  }

  #worlds(): World[] {
    return [
      ...this.#instances().map((instance) => instance.world),
      ...this.primary.snapshots.worlds(),
      ...keptBaseWorlds(),
    ]
  }

  /** Lets go of a kept base nobody forks from, else of the least recently used session but the newest. */
  #evictOne(): boolean {
    if (releaseUnusedBase(new Set(this.#instances().map((instance) => rootOf(instance.world))))) return true
    const oldest = this.#sessions.keys().next().value
    if (oldest === undefined || this.#sessions.size < 2) return false
    this.#drop(oldest)
    return true
  }
}

/** A kept session, as {@link Sessions.list} gives it. */
export interface SessionInfo {
  key: string
  /** When a request last named it. */
  lastUsed: Date
  instance: MockInstance
}

const rootOf = (world: World): World => (world.forkedFrom ? rootOf(world.forkedFrom) : world)
