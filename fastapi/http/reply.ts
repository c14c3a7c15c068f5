import { statusPhrase } from './status-phrases.js'

/**
 * An answer the mock wrote, before a host sends it: a status, headers and the body's bytes. The
 * core works on these; each host then builds the one `Response` it needs ({@link toResponse}). A
 * `Response` is costly to build (a body stream set up at once, ~19 µs on Node 22 and ~40–60 µs on
 * Node 20 with its copy of the bytes; on msw 3 a proxied `Headers`), and the host decides whether
 * it needs a body stream at all: msw reads one, the standalone server writes the bytes itself.
 */
export class Reply {
  readonly headers: ReplyHeaders

  constructor(
    readonly status: number,
    headers: Record<string, string>,
    /** The body, or `null` for none (a 204, a 307, an answer to HEAD). */
    readonly bytes: Uint8Array | null,
  ) {
    this.headers = new ReplyHeaders(headers)
  }

  /** The same answer with no body (uvicorn's answer to HEAD): every header, content-length included, kept. */
  withoutBody(): Reply {
    return new Reply(this.status, Object.fromEntries(this.headers.inSetOrder()), null)
  }
}

/**
 * What a step of the core answers: a {@link Reply} the mock wrote, or a Fetch `Response` (an override's,
 * a streamed body, a network error).
 */
export type Outcome = Reply | Response

/**
 * A reply's headers: the part of Fetch's `Headers` the core uses (names in lower case, iterated in
 * order of name, as `Headers` iterates), over a plain map. No answer the mock writes sets a cookie,
 * so `append` joins values as `Headers` does for every other name.
 */
export class ReplyHeaders implements Iterable<[string, string]> {
  readonly #values = new Map<string, string>()
  /** Whether the names went in in order (the usual case), so iterating needs no sort. */
  #inOrder = true
  #last = ''

  constructor(init: Record<string, string>) {
    for (const name in init) this.set(name, init[name] as string)
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase())
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase()
    if (!this.#values.has(key)) this.#noteNew(key)
    this.#values.set(key, value)
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase()
    const before = this.#values.get(key)
    if (before === undefined) this.#noteNew(key)
    this.#values.set(key, before === undefined ? value : `${before}, ${value}`)
  }

  /** The headers in the order they were first set: the order Starlette writes them (a host writing bytes sends it). */
  inSetOrder(): IterableIterator<[string, string]> {
    return this.#values.entries()
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    if (this.#inOrder) return this.#values.entries()
    return [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]()
  }

  #noteNew(key: string): void {
    if (key < this.#last) this.#inOrder = false
    else this.#last = key
  }
}

/** Whether an outcome is `Response.error()`: a connection dropped, with no status or headers to add to. */
export const isNetworkError = (outcome: Outcome): boolean => !(outcome instanceof Reply) && outcome.type === 'error'

/**
 * The one `Response` a host sends for an outcome. `bytesOnly`: the host writes {@link writtenBody} to its socket
 * itself, so the answer carries no body stream (which in Node 20 costs more than the page it carries).
 */
export function toResponse(outcome: Outcome, bytesOnly: boolean): Response {
  if (!(outcome instanceof Reply)) return outcome.bodyUsed ? unread(outcome) : outcome
  const { status, bytes } = outcome
  const body = !bytesOnly && bytes && bytes.byteLength > 0 ? (bytes as Uint8Array<ArrayBuffer>) : null
  const response = new Response(body, { status, statusText: statusPhrase(status) })
  // Set one by one: undici's conversion of a record (and msw 3's, which builds a second `Headers` from it to
  // note the raw headers) costs ~8 µs, the same headers set ~1.5–3 µs.
  for (const [name, value] of outcome.headers) response.headers.set(name, value)
  if (!bytesOnly) return response
  ;(response as WrittenResponse)[SET_ORDER] = [...outcome.headers.inSetOrder()].map(([name]) => name)
  return bytes ? holding(response, bytes) : response
}

/**
 * The answer's header names in the order they were set, for a host that writes them itself ({@link toResponse}
 * with `bytesOnly`): Fetch's `Headers` iterate by name, Starlette writes them as they were set. Names set on the
 * response later (CORS) follow, by name.
 */
export function headersInSetOrder(response: Response): Array<[string, string]> {
  const order = (response as WrittenResponse)[SET_ORDER]
  if (!order) return [...response.headers]
  const first = order.flatMap((name): Array<[string, string]> => {
    const value = response.headers.get(name)
    return value === null ? [] : [[name, value]]
  })
  return [...first, ...[...response.headers].filter(([name]) => !order.includes(name))]
}

/**
 * The API's answer as a scenario's override gets it (`answer()`): with its body, and its bytes held, so an override
 * that reads the body and then returns (or throws) the same `Response` still sends it whole ({@link unread}).
 */
export function readableResponse(outcome: Outcome): Response {
  const response = toResponse(outcome, false)
  return outcome instanceof Reply && outcome.bytes ? holding(response, outcome.bytes) : response
}

/**
 * A `Response` whose body was read already, sent again from the bytes it holds. One that holds none cannot be
 * sent (msw and the hosts would fail on it): it is refused as a bug of the override, which the core answers 500.
 */
function unread(response: Response): Response {
  const bytes = writtenBody(response)
  if (!bytes) throw new TypeError('An override answered with a Response whose body was read already: return a new one')
  return holding(new Response(bytes as Uint8Array<ArrayBuffer>, response), bytes)
}

/**
 * Where an answer keeps its bytes, for a host that writes them and to send it again once its body was read: on the
 * response itself, with no registry.
 */
const WRITTEN_BODY = Symbol('agent-console-mock written body')
const SET_ORDER = Symbol('agent-console-mock header order')
type WrittenResponse = Response & { [WRITTEN_BODY]?: Uint8Array; [SET_ORDER]?: string[] }

/** The response, holding `bytes` for {@link writtenBody}. */
function holding(response: Response, bytes: Uint8Array): Response {
  ;(response as WrittenResponse)[WRITTEN_BODY] = bytes
  return response
}

/**
 * The exact bytes of an answer {@link toResponse} built for a host that writes them itself, without reading a
 * body stream. `undefined` for any other response.
 */
export const writtenBody = (response: Response): Uint8Array | undefined => (response as WrittenResponse)[WRITTEN_BODY]
