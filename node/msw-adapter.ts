/**
 * Where `setupServer` differs between msw 2 and msw 3, for the Node host. The rest of node/ uses
 * what both majors share.
 *
 * The option for requests no handler answers is `onUnhandledRequest` in msw 2 and
 * `onUnhandledFrame` in msw 3, and each major ignores the other's name without a word: under the
 * wrong name, 'error' becomes msw's default 'warn' and an unmocked request reaches the network.
 */
import type { SetupServer } from 'msw/node'

/** What a request no handler answers does: refused with an error, passed on with a warning, or passed on. */
export type UnhandledRequestStrategy = 'error' | 'warn' | 'bypass'

type ListenOptions = NonNullable<Parameters<SetupServer['listen']>[0]>

/** Starts `server` intercepting, with `strategy` for unhandled requests under the name its msw reads. */
export function listen(server: SetupServer, strategy: UnhandledRequestStrategy): void {
  const unsupported = unsupportedNode(server)
  if (unsupported) throw new Error(unsupported)
  const options = readsUnhandledFrame(server) ? { onUnhandledFrame: strategy } : { onUnhandledRequest: strategy }
  // Typed against one major's options: the other major's name is right at run time, not known to tsc.
  server.listen(options as ListenOptions)
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
