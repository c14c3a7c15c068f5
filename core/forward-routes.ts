import { httpUrl } from './http-url.js'

/** Path prefixes forwarded to a real server, e.g. `{ '/v1/agents': 'http://127.0.0.1:8000' }`. */
export type ForwardOptions = Readonly<Record<string, string>>

/** One forwarded prefix, checked. */
export interface ForwardRoute {
  prefix: string
  target: URL
}

/**
 * The routes of `forward`, longest prefix first (the most specific wins).
 * @throws Error naming the prefix or URL that cannot be used, and what to write instead
 */
export function forwardRoutes(forward: ForwardOptions = {}): ForwardRoute[] {
  return Object.entries(forward)
    .map(([prefix, target]) => {
      if (!prefix.startsWith('/'))
        throw new Error(`forward: the path prefix "${prefix}" must start with "/", e.g. /v1/agents=${target}`)
      const url = httpUrl(target)
      if (!url) throw new Error(`forward: "${target}" (for ${prefix}) must be an http:// or https:// URL`)
      return { prefix: prefix.replace(/\/+$/, '') || '/', target: url }
    })
    .sort((a, b) => b.prefix.length - a.prefix.length)
}

/** Whether `path` is under `prefix` at a segment boundary: `/v1/agents` covers `/v1/agents/1`, not `/v1/agentsX`. */
export const isUnder = (path: string, prefix: string): boolean =>
  prefix === '/' || path === prefix || path.startsWith(`${prefix}/`)

/** How long the target has: to accept the connection, then to send its whole answer once connected. */
export interface ForwardTimeouts {
  /** @default 10,000 ms */
  connectTimeoutMs: number
  /** From the connection to the answer's last byte. @default 60,000 ms */
  answerTimeoutMs: number
}

export const DEFAULT_FORWARD_TIMEOUTS: ForwardTimeouts = { connectTimeoutMs: 10_000, answerTimeoutMs: 60_000 }
