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
  checkControlToken(options.controlToken)
  if (isLoopbackHost(options.host)) return options.controlToken
  if (options.jwtSecret === DEVELOPMENT_JWT_SECRET && !options.insecureDevSecret) {
    throw new Error(
      `bound to ${options.host}, beyond loopback: anyone who can reach it could sign tokens with the public development secret. ` +
        'Set AGENT_CONSOLE_MOCK_JWT_SECRET, or pass --insecure-dev-secret to accept that.',
    )
  }
  return options.controlToken ?? randomUUID()
}

/** The fewest characters a control token given may have: a short one can be guessed from any page that can reach the server. */
export const MIN_CONTROL_TOKEN_LENGTH = 16

/**
 * Refuses a control token that guards nothing: empty (`--control-token "$UNSET"` sent as
 * `X-Mock-Control-Token;` matched it) or short enough to guess.
 * @throws Error saying what to pass instead
 */
export function checkControlToken(token: string | undefined): void {
  if (token === undefined || token.trim().length >= MIN_CONTROL_TOKEN_LENGTH) return
  throw new Error(
    `the control token is ${token.trim() === '' ? 'empty' : `${token.trim().length} characters long`}: ` +
      `give one of at least ${MIN_CONTROL_TOKEN_LENGTH} characters (e.g. \`openssl rand -hex 16\`), or none: ` +
      'a server bound beyond loopback then makes one up and prints it.',
  )
}

/** The names a server bound to `host` is reached by: what its control API answers besides loopback names. */
export function ownHostNames(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host]
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address))
  return [hostname(), ...addresses]
}
