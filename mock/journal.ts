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
export const DEFAULT_JOURNAL_SIZE = 1000

/**
 * A bounded log of the recent requests, oldest first, so a test can assert on what its
 * app sent. Memory stays bounded whatever the traffic.
 */
export class Journal {
  #entries: JournalEntry[] = []
  #seq = 0

  constructor(readonly size = DEFAULT_JOURNAL_SIZE) {}

  record(entry: Omit<JournalEntry, 'seq'>): void {
    this.#entries.push({ seq: ++this.#seq, ...entry })
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
