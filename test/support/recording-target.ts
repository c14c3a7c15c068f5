import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'

/** A request as the target saw it. */
export interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** What the target answers every request with: its JSON is sent gzipped. */
export interface TargetAnswer {
  status: number
  statusText: string
  json: string
  /** Headers besides `Content-Type`, `Content-Encoding` and `Content-Length`, repeated names as written. */
  headers?: Array<[string, string]>
}

/** A real server for a proxy or a forwarded prefix to reach: it answers alike, and keeps the last request. */
export interface RecordingTarget {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The gzip bytes every answer carries. */
  body: Buffer
  /** The last request it answered (`{}` before any, and after {@link forget}). */
  readonly seen: Partial<SeenRequest>
  forget(): void
  close(): void
}

/** A node:http target on a free loopback port that answers every request with `answer` (a HEAD without body). */
export async function startRecordingTarget(answer: TargetAnswer): Promise<RecordingTarget> {
  const body = gzipSync(answer.json)
  let seen: Partial<SeenRequest> = {}
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() }
      res.writeHead(answer.status, answer.statusText, [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'gzip'],
        ['Content-Length', String(body.byteLength)],
        ...(answer.headers ?? []),
      ])
      res.end(req.method === 'HEAD' ? undefined : body)
    })
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    body,
    get seen() {
      return seen
    },
    forget: () => void (seen = {}),
    close: () => void server.close(),
  }
}
