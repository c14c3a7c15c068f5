import { randomUUID } from 'node:crypto'
import { hostname, networkInterfaces } from 'node:os'
import { DEVELOPMENT_JWT_SECRET } from '../model/auth/tokens.js'
import { isLoopbackHost } from '../core/control-guard.js'

/** What a server bound beyond loopback needs before it may listen, and what it trusts once it does. */
export interface ExposureOptions {
  host: string
  /** The secret tokens are checked with, resolved (the development one where none was given). */
  jwtSecret: string
  controlToken?: string
  insecureDevSecret?: boolean
}

/**
 * The control token a server must demand (one made up when it is bound beyond loopback and
 * none was given), after refusing the public development secret on such a server.
 * @throws Error saying what to do, for a server bound beyond loopback with the development secret
 */
export function controlTokenFor(options: ExposureOptions): string | undefined {
  if (isLoopbackHost(options.host)) return options.controlToken
  if (options.jwtSecret === DEVELOPMENT_JWT_SECRET && !options.insecureDevSecret) {
    throw new Error(
      `bound to ${options.host}, beyond loopback: anyone who can reach it could sign tokens with the public development secret. ` +
        'Set AGENT_CONSOLE_MOCK_JWT_SECRET, or pass --insecure-dev-secret to accept that.',
    )
  }
  return options.controlToken ?? randomUUID()
}

/** The names a server bound to `host` is reached by: what its control API answers besides loopback names. */
export function ownHostNames(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host]
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address))
  return [hostname(), ...addresses]
}
