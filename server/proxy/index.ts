import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import express from 'express'
import type { JudgeOptions, Violation } from '../../verify/judge/index.js'
import { isLoopbackHost } from '../../core/control-guard.js'
import { Journal, type JournalEntry } from '../../core/journal/journal.js'
import { checkControlToken, ownHostNames } from '../exposure.js'
import { send } from '../middleware.js'
import { closeServer, serverUrl } from '../http-server.js'
import { proxyControl } from './control.js'
import { ProxyRecording } from './record.js'
import { DEFAULT_FORWARD_TIMEOUTS, type ForwardTimeouts } from './forward.js'
import { decodedBody, judgeForwarded, splitTarget, summary, TOO_LARGE, ViolationLog } from './judge.js'
import { toFetchRequest } from '../node-request.js'
import { answerError, writeIncoming } from './io.js'
import { ContractFile } from './record-file.js'
import { relay, relayedRecord } from './relay.js'
import { DEFAULT_PROXY_PORT } from '../defaults.js'

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
  /**
   * Keep the recorded contract (`verify --replay` reads it) in this file: written at start, then rewritten
   * whole (atomically) at most once a second as interactions come, and at stop.
   */
  record?: string
  /** Hears a write of `record` that failed (the next one tries again; `close` rejects if the last fails). */
  onRecordError?: (error: Error) => void
  /** Bounds on the target's time to connect and to answer (504 past them). @default 10 s and 60 s */
  timeouts?: Partial<ForwardTimeouts>
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
  const recording = new ProxyRecording({ ...options.profile }, () => contractFile?.changed())
  const control = proxyControl(journal, violations, recording, guard)
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024
  const timeouts = { ...DEFAULT_FORWARD_TIMEOUTS, ...options.timeouts }
  const contractFile = options.record
    ? new ContractFile(options.record, () => recording.text(), options.onRecordError)
    : undefined
  // Written at once: a path that cannot be written is refused at start, and the file is a contract from then on.
  await contractFile?.close()

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
    const relayed = await relay(req, res, targetOrigin, target, { timeouts, maxBodyBytes })
    if (!relayed) return
    const { outgoing, incoming } = relayed
    // The proxy's own answers (502, 504, a client gone) are neither judged nor recorded.
    const answer = incoming.fromProxy
      ? undefined
      : await decodedBody(incoming.body, incoming.headers['content-encoding'])
    const found = answer === undefined ? [] : await judgeForwarded(outgoing, incoming, answer, options)
    journal.record(relayedRecord(targetOrigin, relayed))
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
    if (answer !== undefined && answer !== TOO_LARGE)
      recording.record(outgoing, incoming, answer, new URL(target, targetOrigin.origin))
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
      await contractFile?.close()
    },
  }
}
