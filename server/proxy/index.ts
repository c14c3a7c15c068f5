import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import express from 'express'
import type { JudgeOptions, Violation } from '../../verify/judge/index.js'
import { isLoopbackHost } from '../../core/control-guard.js'
import { httpError } from '../../fastapi/http/responses.js'
import { Journal, type JournalEntry } from '../../core/journal/journal.js'
import { checkControlToken, ownHostNames } from '../exposure.js'
import { send } from '../middleware.js'
import { closeServer, serverUrl } from '../http-server.js'
import { proxyControl } from './control.js'
import { ProxyRecording } from './record.js'
import { endToEnd, forward, type Outgoing, targetUrl } from './forward.js'
import { judgeForwarded, splitTarget, summary, ViolationLog } from './judge.js'
import { toFetchRequest } from '../node-request.js'
import { answerError, headersOf, readBody, TooLarge, unreachable, writeIncoming } from './io.js'

export const DEFAULT_PROXY_PORT = 4011

export interface ProxyOptions extends JudgeOptions {
  /** The server every request goes on to, e.g. `https://staging.example.com`. */
  target: string
  /** @default 4011; 0 for any free port */
  port?: number
  /** @default 127.0.0.1; anything beyond loopback gets a control token */
  host?: string
  allowOrigins?: string[]
  allowedHosts?: string[]
  controlToken?: string
  /** Bytes of a request body the proxy reads at most (it must hold it to judge and journal it). @default 10 MiB */
  maxBodyBytes?: number
  /** Write the recorded contract (`verify --replay` reads it) to this file when the proxy stops. */
  record?: string
  /** Hears each exchange once it is journaled and judged (the CLI logs it). */
  onExchange?: (entry: JournalEntry, violations: readonly Violation[]) => void
}

export interface RunningProxy {
  url: string
  server: Server
  journal: Journal
  violations: ViolationLog
  /** The token `/__mock/*` demands, when bound beyond loopback. */
  controlToken?: string
  close(): Promise<void>
}

/**
 * Starts a recording, judging reverse proxy: every request goes on to `target` unchanged and its answer comes
 * back unchanged, journaled and judged against the contract (verify/judge/index.ts); an answer that breaks it
 * gets an `x-contract-violations` header and is listed at `GET /__mock/violations`.
 * @example const proxy = await startProxy({ target: 'https://staging.example.com', port: 0 })
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const targetOrigin = new URL(options.target)
  const host = options.host ?? '127.0.0.1'
  checkControlToken(options.controlToken)
  const controlToken = isLoopbackHost(host) ? options.controlToken : (options.controlToken ?? randomUUID())
  const guard = {
    allowOrigins: options.allowOrigins ?? [],
    allowedHosts: [...(options.allowedHosts ?? []), ...ownHostNames(host)],
    token: controlToken,
  }
  const journal = new Journal()
  const violations = new ViolationLog()
  const recording = new ProxyRecording({ ...options.profile })
  const control = proxyControl(journal, violations, recording, guard)
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // An absolute-form target (`GET http://elsewhere/...`) goes to the target too, by its path: no open proxy.
    const [path, query] = splitTarget(req.url ?? '/')
    const target = query ? `${path}?${query}` : path
    if (path.startsWith('/__mock/')) {
      const request = toFetchRequest(req)
      return send(
        res,
        await control({
          request,
          method: request.method,
          url: new URL(request.url),
          requested: new URL(request.url),
          prefix: '',
        }),
        req.method,
      )
    }
    const started = Date.now()
    let outgoing: Outgoing
    try {
      outgoing = {
        method: req.method ?? 'GET',
        target,
        rawHeaders: req.rawHeaders,
        body: await readBody(req, maxBodyBytes),
      }
    } catch (error) {
      if (error instanceof TooLarge) return send(res, httpError(413, 'Request body too large'), req.method)
      throw error
    }
    const incoming = await forward(targetOrigin, outgoing).catch((error: Error) => unreachable(targetOrigin, error))
    const found = judgeForwarded(outgoing, incoming, options)
    journal.record({
      time: new Date(started).toISOString(),
      method: outgoing.method,
      url: targetUrl(targetOrigin, outgoing.target),
      status: incoming.status,
      duration_ms: Date.now() - started,
      requestHeaders: headersOf(endToEnd(req.rawHeaders)),
      requestBody: outgoing.body.byteLength ? outgoing.body : undefined,
      responseHeaders: headersOf(incoming.rawHeaders),
      responseBytes: incoming.body.byteLength,
    })
    const entry = journal.list({ limit: 1 })[0]!
    if (found.length) {
      violations.add({
        seq: entry.seq,
        method: outgoing.method,
        path,
        query,
        status: incoming.status,
        violations: found,
      })
    }
    if (!incoming.fromProxy) recording.record(outgoing, incoming, new URL(target, targetOrigin.origin))
    options.onExchange?.(entry, found)
    writeIncoming(res, incoming, found.length ? summary(found) : undefined, req.method)
  }

  const app = express()
  app.disable('x-powered-by')
  app.use((req, res, next) => void handle(req, res).catch(next))
  app.use(answerError)
  const server = createServer(app)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? DEFAULT_PROXY_PORT, host, () => resolve())
  })
  return {
    url: serverUrl(server),
    server,
    journal,
    violations,
    controlToken,
    async close() {
      await closeServer(server)
      if (options.record) await recording.write(options.record)
    },
  }
}
