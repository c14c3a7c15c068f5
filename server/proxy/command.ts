import { httpUrl } from '../../core/http-url.js'
import { readFileSync } from 'node:fs'
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import type { ProfileFile } from '../../verify/profile/settings.js'
import type { Violation } from '../../verify/judge/index.js'
import type { JournalEntry } from '../../core/journal/journal.js'
import { DEFAULT_FORWARD_TIMEOUTS, type ForwardTimeouts } from './forward.js'
import { DEFAULT_PROXY_PORT } from '../defaults.js'

const HELP_AFTER = `
Every request goes on to --target unchanged (hop-by-hop headers aside) and its answer comes back unchanged.
Each API answer is judged against the contract as verify judges it; one that breaks it gets the header
x-contract-violations (the checks broken) and is listed at GET /__mock/violations. The traffic is at
GET /__mock/requests and GET /__mock/requests.har. /__mock/* is answered by the proxy itself.

Example:
  agent-console-mock proxy --target https://staging.example.com --profile profile.json
  # point the frontend at http://127.0.0.1:${DEFAULT_PROXY_PORT}, use it, then:
  curl -s http://127.0.0.1:${DEFAULT_PROXY_PORT}/__mock/violations`

const port = (text: string) => {
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || value > 65535) throw new InvalidArgumentError('--port must be 0 to 65535.')
  return value
}

const bytes = (text: string) => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new InvalidArgumentError('--max-body-bytes must be a positive integer.')
  return Number(text)
}

/** A timeout option's milliseconds: 1 ms to 1 hour. */
export const milliseconds = (name: string) => (text: string) => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > 3_600_000)
    throw new InvalidArgumentError(`${name} must be an integer from 1 to 3600000 (milliseconds).`)
  return Number(text)
}

/** The options bounding the target's time, shared by `proxy` and the server's `--forward`. */
export function addTimeoutOptions(command: Command): Command {
  return command
    .option(
      '--connect-timeout <ms>',
      `milliseconds the target has to accept a connection: past them, 504 (default: ${DEFAULT_FORWARD_TIMEOUTS.connectTimeoutMs})`,
      milliseconds('--connect-timeout'),
    )
    .option(
      '--answer-timeout <ms>',
      `milliseconds the target has, once connected, to send its whole answer: past them, 504 (default: ${DEFAULT_FORWARD_TIMEOUTS.answerTimeoutMs})`,
      milliseconds('--answer-timeout'),
    )
}

/** The timeouts the options give (those not given take their default). */
export const timeoutsOf = (options: OptionValues): Partial<ForwardTimeouts> => ({
  ...(options.connectTimeout && { connectTimeoutMs: options.connectTimeout }),
  ...(options.answerTimeout && { answerTimeoutMs: options.answerTimeout }),
})

const targetUrl = (text: string) => {
  if (!httpUrl(text)) throw new InvalidArgumentError('--target must be an http:// or https:// URL.')
  return text
}

/** A profile file as verify writes it (--profile-out): settings the judge does not know are left aside. */
function profileFile(path: string): ProfileFile {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${path}: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError(`${path}: a profile is a JSON object of settings`)
  return value as ProfileFile
}

/**
 * Adds `proxy` to a commander program: a recording, judging reverse proxy in front of a real server.
 * @example registerProxyCommand(program); await program.parseAsync()
 */
export function registerProxyCommand(program: Command): Command {
  const command = program
    .command('proxy')
    .description('Forward the API to a real server, journal the traffic and flag answers that break the contract.')
    .requiredOption(
      '--target <url>',
      '(required) the server to forward to, e.g. https://staging.example.com',
      targetUrl,
    )
    .option('-p, --port <port>', `port to listen on (0 for any free port) (default: ${DEFAULT_PROXY_PORT})`, port)
    .option('--host <host>', 'address to bind; anything but loopback gets a control token', '127.0.0.1')
    .option('--profile <file>', 'JSON file of profile settings the server follows (as verify --profile-out writes)')
    .option('--allow-origin <origin...>', 'trust pages of this origin with /__mock/ (loopback pages always are)')
    .option('--allowed-host <host...>', 'answer /__mock/ under this host name too (loopback names always)')
    .option('--control-token <token>', 'demand this X-Mock-Control-Token on /__mock/ requests')
    .option(
      '--max-body-bytes <bytes>',
      'larger request bodies answer 413 (the proxy holds each body)',
      bytes,
      10 * 2 ** 20,
    )
    .option(
      '--record <file>',
      'keep the recorded contract of the traffic in this file (verify --replay reads it): rewritten whole at most once a second, and on stop',
    )
    .option('-q, --quiet', 'log errors only, not every request')
    .addHelpText('after', HELP_AFTER)
  return addTimeoutOptions(command).action(async (options) => {
    // Loaded once the command runs: its --help and a mistake in its command line load no proxy.
    const { startProxy } = await import('./index.js')
    const proxy = await startProxy({
      target: options.target,
      port: options.port ?? DEFAULT_PROXY_PORT,
      host: options.host,
      profile: options.profile ? profileFile(options.profile) : undefined,
      allowOrigins: options.allowOrigin,
      allowedHosts: options.allowedHost,
      controlToken: options.controlToken,
      maxBodyBytes: options.maxBodyBytes,
      record: options.record,
      onRecordError: (error) => console.error(`agent-console-mock proxy: ${error.message}`),
      timeouts: timeoutsOf(options),
      onExchange: options.quiet ? undefined : logExchange,
    })
    console.log(`agent-console-mock proxy: ${proxy.url} -> ${new URL(options.target).origin}`)
    if (proxy.controlToken) console.log(`control token (X-Mock-Control-Token): ${proxy.controlToken}`)
    console.log(`violations: ${proxy.url}/__mock/violations   traffic: ${proxy.url}/__mock/requests.har`)
    const stop = (signal: string) => {
      console.log(`\n${signal}: stopping`)
      proxy.close().then(
        () => process.exit(0),
        (error: Error) => {
          // The recorded contract could not be written: whoever started the proxy must see it.
          console.error(`agent-console-mock proxy: ${error.message}`)
          process.exit(1)
        },
      )
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
  })
}

/** One line per answer as it passes, with the checks it broke. */
function logExchange(entry: JournalEntry, found: readonly Violation[]): void {
  const query = entry.query ? `?${entry.query}` : ''
  const broken = found.length ? `  VIOLATES ${found.map((violation) => violation.check).join(', ')}` : ''
  console.log(`${entry.method} ${entry.path}${query} -> ${entry.status}${broken}`)
}
