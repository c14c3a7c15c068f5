/**
 * Where `setupServer` differs between msw 2 and msw 3, for the Node host. The rest of node/ uses
 * what both majors share.
 *
 * The option for requests no handler answers is `onUnhandledRequest` in msw 2 and
 * `onUnhandledFrame` in msw 3, and each major ignores the other's name without a word: under the
 * wrong name, 'error' becomes msw's default 'warn' and an unmocked request reaches the network.
 *
 * msw 3 answers `fetch` on a socket of its own, and never closes that socket's TCP handle
 * ({@link closeHandlesMswLeaves}): the one reach into Node's internals is here.
 */
import { subscribe } from 'node:diagnostics_channel'
import type { Socket } from 'node:net'
import type { SetupServer } from 'msw/node'

/**
 * What a request no handler answers does: refused with an error, passed on with a warning, or passed on; or a
 * function that decides (msw's callback, in the shape msw 2 calls it on both majors).
 */
export type UnhandledRequestStrategy = 'error' | 'warn' | 'bypass' | UnhandledRequestCallback

/**
 * Called with a request no handler answers (a WebSocket connection comes as a request with `upgrade: websocket`),
 * which then goes on to the network unless the callback throws: then it fails, as with `'error'`. `print.warning()`
 * and `print.error()` log msw's warning or error for it, as `'warn'` and `'error'` do.
 * @example onUnhandledRequest: (request, print) => { if (new URL(request.url).hostname !== 'cdn.test') { print.error(); throw new Error('unmocked') } }
 */
export type UnhandledRequestCallback = (request: Request, print: UnhandledRequestPrint) => void | Promise<void>

/** What msw does for an unhandled request with its own strategies: `'warn'`'s warning, `'error'`'s error. */
export interface UnhandledRequestPrint {
  warning(): void
  error(): void
}

/** msw 3's callback for an unhandled frame (its `onUnhandledFrame`): HTTP requests and WebSocket connections. */
type UnhandledFrameCallback = (args: {
  frame: { protocol: string; data: { request?: Request; connection?: { client: { url: URL } } } }
  defaults: { warn(): void; error(): void }
}) => void | Promise<void>

type ListenOptions = NonNullable<Parameters<SetupServer['listen']>[0]>

/** Starts `server` intercepting, with `strategy` for unhandled requests under the name its msw reads. */
export function listen(server: SetupServer, strategy: UnhandledRequestStrategy): void {
  const unsupported = unsupportedNode(server)
  if (unsupported) throw new Error(unsupported)
  const msw3 = readsUnhandledFrame(server)
  if (msw3) closeHandlesMswLeaves()
  const options = msw3 ? { onUnhandledFrame: unhandledFrameStrategy(strategy) } : { onUnhandledRequest: strategy }
  // Typed against one major's options: the other major's name is right at run time, not known to tsc.
  server.listen(options as ListenOptions)
}

/**
 * A strategy as msw 3 takes it: a name as it is; a callback called with a request, as msw 2 calls it (msw 2's own
 * `fromLegacyOnUnhandledRequest` does the same: a WebSocket connection as a request with `upgrade: websocket`).
 */
function unhandledFrameStrategy(strategy: UnhandledRequestStrategy): string | UnhandledFrameCallback {
  if (typeof strategy !== 'function') return strategy
  return ({ frame, defaults }) => {
    const { request, connection } = frame.data
    const asRequest =
      request ??
      (connection && new Request(connection.client.url, { headers: { connection: 'upgrade', upgrade: 'websocket' } }))
    if (!asRequest) throw new Error(`agent-console-mock: an unhandled ${frame.protocol} frame carries no request`)
    return strategy(asRequest, { warning: () => defaults.warn(), error: () => defaults.error() })
  }
}

/**
 * Whether the server is msw 3's, which reads `onUnhandledFrame`. msw 3 builds `setupServer` on its
 * network and exposes the network's `readyState`; msw 2's server has no such property. (The package
 * version would say it too, but the browser host cannot read it, and both hosts decide alike.)
 */
export const readsUnhandledFrame = (server: SetupServer): boolean => 'readyState' in server

/** The oldest Node msw 3 runs on (its `engines`). */
const MSW3_NODE = [22, 12] as const

/**
 * Why this Node cannot run the installed msw, if it cannot. npm lets msw 3 onto Node 20 with only an
 * engine warning, after which every mocked `fetch` fails deep inside msw (`Promise.withResolvers is
 * not a function`); saying so at start names the cause.
 */
export function unsupportedNode(server: SetupServer, node: string = process.versions.node): string | undefined {
  if (!readsUnhandledFrame(server)) return undefined
  const [major = 0, minor = 0] = node.split('.').map(Number)
  if (major > MSW3_NODE[0] || (major === MSW3_NODE[0] && minor >= MSW3_NODE[1])) return undefined
  return `msw 3 needs Node ${MSW3_NODE.join('.')} or later, and this is Node ${node}: install msw 2 beside agent-console-mock (npm install --save-dev msw@2), or run a newer Node`
}

let closingLeftHandles = false

/**
 * msw 3 (its interceptors 0.45) intercepts `fetch` at the socket: each mocked connection is a `net.Socket`
 * whose `_destroy` msw replaces with one that never closes the TCP handle `connect()` made. Every request
 * then leaves a handle, and the ~20 KB of socket, parser and request it holds, for the life of the process:
 * a long test run grows by ~200 MB every 10,000 requests, and each full GC grows dearer with it
 * (docs/performance.md). Once such a socket has closed, its handle is closed here. A socket Node closed
 * itself has given up its handle by then, so no other socket is touched; the hook stays for the process,
 * as msw's own patches do, since a socket of this mock can outlive `close()` in a client's pool.
 */
function closeHandlesMswLeaves(): void {
  if (closingLeftHandles) return
  closingLeftHandles = true
  subscribe('net.client.socket', (message) => {
    const socket = (message as { socket: SocketWithHandle }).socket
    socket.once('close', () => closeHandleLeftBy(socket))
  })
}

/** A socket with Node's own field for its handle (null once Node closed it). */
type SocketWithHandle = Socket & { _handle?: { close(): void } | null }

function closeHandleLeftBy(socket: SocketWithHandle): void {
  const handle = socket._handle
  if (!handle) return
  socket._handle = null
  handle.close()
}
