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

/** Characters of a path or query an entry keeps; longer ones are cut and end with `…`. */
const JOURNAL_TEXT_LIMIT = 2048

/**
 * A bounded log of the recent requests, oldest first, so a test can assert on what its
 * app sent. Memory stays bounded whatever the traffic: at most `size` entries, each with
 * a path and query of at most JOURNAL_TEXT_LIMIT characters.
 */
export class Journal {
  #entries: JournalEntry[] = []
  #seq = 0

  constructor(readonly size = DEFAULT_JOURNAL_SIZE) {}

  record(entry: Omit<JournalEntry, 'seq'>): void {
    this.#entries.push({ seq: ++this.#seq, ...entry, path: bounded(entry.path), query: bounded(entry.query) })
    if (this.#entries.length > this.size) this.#entries.splice(0, this.#entries.length - this.size)
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const matches = this.#entries.filter(
      (entry) =>
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || entry.path.includes(filter.path)) &&
        (filter.status === undefined || entry.status === filter.status),
    )
    return filter.limit === undefined ? matches : matches.slice(-filter.limit)
  }

  clear(): void {
    this.#entries = []
  }
}

/**
 * The text as a string of its own, cut to JOURNAL_TEXT_LIMIT characters. Always a copy: a
 * path or query taken from the request URL is, in V8, a slice that keeps the whole URL (a
 * megabyte query string) alive for as long as the entry lives.
 */
function bounded(text: string): string {
  const kept = text.length > JOURNAL_TEXT_LIMIT ? text.slice(0, JOURNAL_TEXT_LIMIT - 1) : text
  return kept.split('').join('') + (kept === text ? '' : '…')
}
