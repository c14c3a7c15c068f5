import { SAFE_METHODS } from '../sent-method.js'
import { redactHeader } from './redact.js'

/** One request the API answered, as the journal keeps it. */
export interface JournalEntry {
  /** Increasing number, unique within the journal's life. */
  seq: number
  /** ISO time the request arrived. */
  time: string
  method: string
  path: string
  /** The raw query string, without `?` ('' when there was none). */
  query: string
  status: number
  /** Milliseconds from arrival to the answer (faults' latency included). */
  duration_ms: number
  /** The origin the request was sent to, e.g. `http://127.0.0.1:4010`. */
  origin: string
  /** The request's headers (lower-case names, repeats joined), with credentials redacted (redact.ts). */
  headers: Record<string, string>
  /** The request body as UTF-8 text; `null` when there was none. Cut past {@link JOURNAL_BODY_LIMIT} bytes. */
  body: string | null
  /** Bytes of the whole request body, as sent. */
  body_bytes: number
  /** Whether `body` holds only the first {@link JOURNAL_BODY_LIMIT} bytes of it. */
  body_truncated: boolean
  /** The answer's headers, as the mock wrote them (before CORS). */
  response_headers: Record<string, string>
  /** Bytes of the answer's body (it is not kept). */
  response_bytes: number
}

/** What the API hands the journal for one request it answered. */
export interface JournalRecord {
  time: string
  method: string
  /** The request URL (origin, path and query are kept). */
  url: URL
  status: number
  duration_ms: number
  requestHeaders: Headers
  /** The request body as read (undefined: none). */
  requestBody: Uint8Array | undefined
  responseHeaders: Iterable<[string, string]>
  responseBytes: number
}

export interface JournalFilter {
  method?: string
  /** A substring of the path. */
  path?: string
  status?: number
  /** The newest this many entries. */
  limit?: number
}

/** The default number of entries kept: the oldest are dropped past it. */
const DEFAULT_JOURNAL_SIZE = 1000

/** Characters of a path, a query or a header value an entry keeps; longer ones are cut and end with `…`. */
const JOURNAL_TEXT_LIMIT = 2048

/** Bytes of a request body an entry keeps (64 KiB); past it the body is cut and `body_truncated`. */
export const JOURNAL_BODY_LIMIT = 64 * 1024

/** Bytes of bodies and headers one journal keeps in all (4 MiB); past it the oldest entries are dropped. */
const JOURNAL_BYTES_BUDGET = 4 * 1024 * 1024

/** What an entry holds besides its texts: the entry and header objects, its numbers and short strings. */
const ENTRY_BYTES = 1024

/**
 * A bounded log of the recent requests, oldest first, so a test can assert on what its
 * app sent. Memory stays bounded whatever the traffic: at most `size` entries, each with
 * a path, a query and header values of at most JOURNAL_TEXT_LIMIT characters and a body of at
 * most JOURNAL_BODY_LIMIT bytes; and at most JOURNAL_BYTES_BUDGET of bodies and headers in all.
 */
export class Journal {
  #entries: Array<{ entry: JournalEntry; weight: number }> = []
  #seq = 0
  #weight = 0
  #writes = 0
  /** Told how much {@link bytes} moved by, after each change (a memory budget's running total). */
  onBytes: ((delta: number) => void) | undefined

  constructor(readonly size = DEFAULT_JOURNAL_SIZE) {}

  /** An estimate of the heap the entries hold (what a memory budget counts). */
  get bytes(): number {
    return this.#weight + this.#entries.length * ENTRY_BYTES
  }

  /** API requests answered 2xx with a method other than GET, HEAD and OPTIONS (changes acknowledged); never cleared. */
  get writes(): number {
    return this.#writes
  }

  record(request: JournalRecord): void {
    const before = this.bytes
    const status = request.status
    if (status >= 200 && status < 300 && !SAFE_METHODS.has(request.method)) this.#writes++
    const headers = headerRecord(request.requestHeaders, true)
    const responseHeaders = headerRecord(request.responseHeaders, false)
    const body = bodyText(request.requestBody)
    const entry: JournalEntry = {
      seq: ++this.#seq,
      time: request.time,
      method: request.method,
      path: bounded(request.url.pathname),
      query: bounded(request.url.search.slice(1)),
      status,
      duration_ms: request.duration_ms,
      origin: request.url.origin,
      headers: headers.record,
      ...body,
      response_headers: responseHeaders.record,
      response_bytes: request.responseBytes,
    }
    const weight = headers.weight + responseHeaders.weight + (body.body?.length ?? 0)
    this.#entries.push({ entry, weight })
    this.#weight += weight
    // One `shift` per entry dropped: V8 moves the array's start in place, where `splice(0, n)` copies
    // every entry kept (~10 µs a request once the journal is full).
    while (this.#entries.length > 1 && (this.#entries.length > this.size || this.#weight > JOURNAL_BYTES_BUDGET)) {
      this.#weight -= this.#entries.shift()?.weight ?? 0
    }
    this.onBytes?.(this.bytes - before)
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const matches = this.#entries
      .map(({ entry }) => entry)
      .filter(
        (entry) =>
          (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
          (filter.path === undefined || entry.path.includes(filter.path)) &&
          (filter.status === undefined || entry.status === filter.status),
      )
    return filter.limit === undefined ? matches : matches.slice(-filter.limit)
  }

  clear(): void {
    const before = this.bytes
    this.#entries = []
    this.#weight = 0
    this.onBytes?.(-before)
  }
}

/**
 * The text as a string of its own, cut to JOURNAL_TEXT_LIMIT characters. Always a copy: a
 * path or query taken from the request URL is, in V8, a slice that keeps the whole URL (a
 * megabyte query string) alive for as long as the entry lives. Slicing a concatenation makes
 * V8 write the concatenation out first, so the slice keeps that copy, not the URL (and costs
 * ~0.1 µs, where splitting into characters and joining them cost ~0.5 µs).
 */
function bounded(text: string): string {
  const kept = text.length > JOURNAL_TEXT_LIMIT ? text.slice(0, JOURNAL_TEXT_LIMIT - 1) : text
  return ` ${kept}`.slice(1) + (kept === text ? '' : '…')
}

/** A header value cut to JOURNAL_TEXT_LIMIT characters (a cut one copied, so it keeps no larger string alive). */
const boundedValue = (text: string): string => (text.length > JOURNAL_TEXT_LIMIT ? bounded(text) : text)

/** Headers as a plain object (credentials redacted for a request's), and the characters they hold. */
function headerRecord(
  headers: Iterable<[string, string]>,
  redact: boolean,
): { record: Record<string, string>; weight: number } {
  const record: Record<string, string> = {}
  let weight = 0
  for (const [name, value] of headers) {
    const kept = boundedValue(redact ? redactHeader(name, value) : value)
    record[name] = kept
    weight += name.length + kept.length
  }
  return { record, weight }
}

const utf8 = new TextDecoder()

/**
 * A request body as the journal keeps it: UTF-8 text (bytes that are not UTF-8 read as U+FFFD),
 * the first JOURNAL_BODY_LIMIT bytes of a longer one (a character cut in two left out).
 */
function bodyText(bytes: Uint8Array | undefined): Pick<JournalEntry, 'body' | 'body_bytes' | 'body_truncated'> {
  if (!bytes) return { body: null, body_bytes: 0, body_truncated: false }
  const truncated = bytes.byteLength > JOURNAL_BODY_LIMIT
  // In stream mode the decoder holds back a character the cut split, instead of writing U+FFFD for it.
  const body = truncated
    ? new TextDecoder().decode(bytes.subarray(0, JOURNAL_BODY_LIMIT), { stream: true })
    : utf8.decode(bytes)
  return { body, body_bytes: bytes.byteLength, body_truncated: truncated }
}
