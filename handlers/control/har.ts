import { statusPhrase } from '../../fastapi/http/status-phrases.js'
import type { JournalEntry } from '../../core/journal/journal.js'

/** Who wrote the HAR file (`log.creator`); `test/server/har.test.ts` holds the version to package.json's. */
export const HAR_CREATOR = { name: 'agent-console-mock', version: '0.1.0' }

/** A name and value pair, as HAR lists headers, query parameters and cookies. */
interface Pair {
  name: string
  value: string
}

/**
 * The journal as an HTTP Archive (HAR 1.2): one entry per request, oldest first, in the shape
 * browsers' developer tools import. What the journal does not keep is written as HAR says to
 * for unknown values: head sizes `-1`; response bodies are not kept (`content.size` is their
 * length, `content.text` absent); a request body cut past 64 KiB says so in `postData.comment`.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
export function toHar(entries: readonly JournalEntry[]) {
  return { log: { version: '1.2', creator: HAR_CREATOR, entries: entries.map(harEntry) } }
}

function harEntry(entry: JournalEntry) {
  return {
    startedDateTime: entry.time,
    time: entry.duration_ms,
    request: harRequest(entry),
    response: harResponse(entry),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: entry.duration_ms, receive: 0, ssl: -1 },
  }
}

function harRequest(entry: JournalEntry) {
  const url = `${entry.origin}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`
  return {
    method: entry.method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: cookiesOf(entry.headers.cookie),
    headers: pairs(entry.headers),
    queryString: [...new URLSearchParams(entry.query)].map(([name, value]) => ({ name, value })),
    ...(entry.body === null ? {} : { postData: postData(entry) }),
    headersSize: -1,
    bodySize: entry.body === null ? 0 : entry.body_bytes,
  }
}

function postData(entry: JournalEntry) {
  return {
    mimeType: entry.headers['content-type'] ?? '',
    text: entry.body ?? '',
    ...(entry.body_truncated ? { comment: `truncated: the first 64 KiB of ${entry.body_bytes} bytes are kept` } : {}),
  }
}

function harResponse(entry: JournalEntry) {
  // A dropped connection (a fault) has no answer: status 0, as browsers write a request that failed.
  return {
    status: entry.status,
    statusText: entry.status === 0 ? '' : statusPhrase(entry.status),
    httpVersion: entry.status === 0 ? '' : 'HTTP/1.1',
    cookies: [],
    headers: pairs(entry.response_headers),
    content: {
      size: entry.response_bytes,
      mimeType: entry.response_headers['content-type'] ?? '',
      comment: 'the journal does not keep response bodies',
    },
    redirectURL: entry.response_headers.location ?? '',
    headersSize: -1,
    bodySize: entry.response_bytes,
  }
}

const pairs = (headers: Record<string, string>): Pair[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }))

/** The cookies of a `Cookie` header (values as the journal keeps them: redacted). */
function cookiesOf(header: string | undefined): Pair[] {
  if (!header) return []
  return header.split(';').flatMap((part) => {
    const equals = part.indexOf('=')
    return equals < 0 ? [] : [{ name: part.slice(0, equals).trim(), value: part.slice(equals + 1).trim() }]
  })
}
