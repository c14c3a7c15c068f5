#!/usr/bin/env node
import { Command, InvalidArgumentError, type OptionValues } from 'commander'
import { distance } from 'fastest-levenshtein'
import { CommandLineEnded, registerVerifyCommand } from '../verify/command.js'
import { registerImportCommand } from '../verify/importer/command.js'
import { DEFAULT_PERSONAS_PER_TEAM, DEFAULT_SEED } from '../factories/world-defaults.js'
import { MAX_PERSONAS_PER_TEAM } from '../model/world-bounds.js'
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_LIMIT } from '../core/limits.js'
import type { ProfileOptions } from '../model/profile.js'
import { banner } from './banner.js'
import { loadConfig } from './config-file.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
import { boundHeapGrowth, defaultMemoryBudget } from './heap.js'
import { quietLogger } from './logger.js'
import { packageVersion } from './package-info.js'
import { addTimeoutOptions, registerProxyCommand, timeoutsOf } from './proxy/command.js'
import type { ServerOptions } from './options.js'
import type { RunningServer } from './start.js'
import { loadOpenApi } from '../node/openapi-source.js'

// What this file imports is what every command line needs: the options, their defaults and help. The server, the
// verifier, the importer and the proxy are each loaded once their command runs, so that --help, --version and a
// mistake in the command line answer at once, and `verify` loads no mock.

const integer = (name: string, min: number, max: number) => (text: string) => {
  const value = Number(text)
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max)
    throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`)
  return value
}

/** The settings of a `--profile` file, checked here so that a bad one is refused naming the file and the option. */
/** A parser of a file's name for commander: an empty one (`--state-file "$UNSET"`) is a mistake, said as such. */
const namedFile = (name: string) => (text: string) => {
  if (text.trim() === '')
    throw new InvalidArgumentError(`${name} is empty: name the file to keep the world in, or leave the option out.`)
  return text
}

async function readProfile(path: string): Promise<ProfileOptions> {
  const { readProfileFile } = await import('../verify/profile/file.js')
  try {
    return readProfileFile(path)
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
}

const program = new Command('agent-console-mock')
  // A subcommand's options are its own (`proxy --port 0` is the proxy's port, not the mock's).
  .enablePositionalOptions()
  .description(
    'Start the Agent Management Console API mock: the same answers as the FastAPI service, over a seeded world.',
  )
  .version(packageVersion())
  // The server's options go before a subcommand: `import --profile <file>` is import's own (the server's profile).
  .enablePositionalOptions()
  .option(
    '-p, --port <port>',
    `port to listen on (env PORT; 0 for any free port) (default: ${DEFAULT_PORT})`,
    integer('--port', 0, 65535),
  )
  .option('--host <host>', `address to bind; anything but loopback must be asked for (default: "${DEFAULT_HOST}")`)
  .option(
    '--seed <seed>',
    `seed of the world: the same seed gives the same world (default: ${DEFAULT_SEED})`,
    integer('--seed', -(2 ** 53 - 1), 2 ** 53 - 1),
  )
  .option(
    '--personas <count>',
    `personas per team (default: ${DEFAULT_PERSONAS_PER_TEAM})`,
    integer('--personas', 0, MAX_PERSONAS_PER_TEAM),
  )
  .option('--profile <file>', 'JSON file of profile settings (docs/profile.md), e.g. as written by verify')
  .option('--delay <ms>', 'milliseconds added before every API answer (default: 0)', integer('--delay', 0, 60_000))
  .option(
    '--state-file <file>',
    'keep the world in this file (and <file>.log): loaded at start; every change on disk before it is answered',
    namedFile('--state-file'),
  )
  .option(
    '--max-body-bytes <bytes>',
    `larger request bodies answer 413 (default: ${DEFAULT_MAX_BODY_BYTES})`,
    integer('--max-body-bytes', 1, 1024 ** 3),
  )
  .option(
    '--sessions <count>',
    `session worlds kept at most (X-Mock-Session) (default: ${DEFAULT_SESSION_LIMIT})`,
    integer('--sessions', 1, 10_000),
  )
  .option(
    '--max-memory <MB>',
    `megabytes the worlds, snapshots, journals and recorded contracts may hold: beyond, the least recently used sessions go, then 503 (default: ${Math.round(defaultMemoryBudget() / 2 ** 20)}, half the heap limit less 96 MB)`,
    integer('--max-memory', 16, 1024 ** 2),
  )
  .option('--no-control', 'switch off the control API under /__mock/')
  .option(
    '--allow-origin <origin...>',
    'trust pages of this origin with the control API, changes to the API and new sessions (loopback pages always are)',
  )
  .option('--allowed-host <host...>', 'answer the control API under this host name too (loopback names always)')
  .option(
    '--control-token <token>',
    'demand this X-Mock-Control-Token on control requests (made up when bound beyond loopback)',
  )
  .option('--insecure-dev-secret', 'accept the public development JWT secret on a server bound beyond loopback')
  .option('--no-cors', "answer no CORS (plain FastAPI); by default CORS is answered as Starlette's CORSMiddleware does")
  .option(
    '--scenario <names...>',
    'scenarios the default world and every new session start with, in order (GET /__mock/scenarios lists them)',
  )
  .option('--openapi <file or URL>', "serve a team's OpenAPI document beside the API (see docs/openapi.md)")
  .option('--config <file>', 'a JS or TS file exporting scenarios: [defineScenario({ name, description, apply })]')
  .option('-q, --quiet', 'log errors only, not every request')
  .option(
    '--forward <prefix=url...>',
    'send requests under this path prefix to a real server, answered byte for byte (ahead of the mock), e.g. /v1/agents=http://127.0.0.1:8000',
  )
addTimeoutOptions(program)
  .addHelpText(
    'after',
    "\nEnvironment: PORT (the port, when --port is not given), AGENT_CONSOLE_MOCK_JWT_SECRET (sign and check tokens with this secret instead of the development one), AGENT_CONSOLE_MOCK_COMPACT_AT (compact the state file's log whenever it passes this many bytes).",
  )
  .action(async (options) => {
    const settleHeapGrowth = boundHeapGrowth()
    const [{ startServerWith }, { resolveServerSettings }, { isLoopbackHost }] = await Promise.all([
      import('./start.js'),
      import('./settings.js'),
      import('../core/control-guard.js'),
    ])
    const given = await serverOptions(options)
    const settings = resolveServerSettings(given)
    const running = await startServerWith(settings)
    settleHeapGrowth()
    const { primary } = running.sessions
    console.log(
      banner({
        version: packageVersion(),
        url: running.url,
        fixtures: primary.fixtures,
        personasPerTeam: primary.worldOptions.personasPerTeam,
        imported: primary.imported,
        customSecret: given.jwtSecret !== undefined,
        control: settings.core.control,
        stateFile: settings.stateFile,
        exposedOn: isLoopbackHost(settings.host) ? undefined : settings.host,
        controlToken: running.controlToken,
        stateFileConflict: running.stateFileConflict,
      }),
    )
    for (const { prefix, target } of settings.forward) console.log(`forwarded: ${prefix} -> ${target.origin}`)
    process.once('SIGINT', () => void stop(running, 'SIGINT'))
    process.once('SIGTERM', () => void stop(running, 'SIGTERM'))
  })

/**
 * The server's options as the command line and the environment give them: what is not given
 * stays undefined, for resolveServerSettings to take its default.
 */
async function serverOptions(options: OptionValues): Promise<ServerOptions> {
  const port =
    options.port ?? (process.env.PORT === undefined ? undefined : integer('PORT', 0, 65535)(process.env.PORT))
  const config = options.config ? await loadConfig(options.config) : undefined
  return {
    port,
    host: options.host,
    seed: options.seed,
    personasPerTeam: options.personas,
    profile: options.profile ? await readProfile(options.profile) : undefined,
    delayMs: options.delay,
    stateFile: options.stateFile,
    maxBodyBytes: options.maxBodyBytes,
    sessionLimit: options.sessions,
    maxMemoryBytes: options.maxMemory === undefined ? undefined : options.maxMemory * 2 ** 20,
    control: options.control,
    cors: options.cors,
    allowOrigins: options.allowOrigin,
    allowedHosts: options.allowedHost,
    controlToken: options.controlToken,
    insecureDevSecret: options.insecureDevSecret,
    jwtSecret: process.env.AGENT_CONSOLE_MOCK_JWT_SECRET || undefined,
    logger: options.quiet ? quietLogger() : consoleLogger,
    scenario: options.scenario,
    scenarios: config?.scenarios,
    forward: options.forward ? (await import('./forwarding.js')).parseForward(options.forward) : undefined,
    forwardTimeouts: timeoutsOf(options),
    openapi: options.openapi ? await loadOpenApi(options.openapi) : undefined,
  }
}

const consoleLogger = {
  info: (line: string) => console.log(line),
  error: (line: string, error?: unknown) => console.error(line, error ?? ''),
}

async function stop(running: RunningServer, signal: string) {
  console.log(`\n${signal}: stopping`)
  try {
    await running.close()
  } catch (error) {
    // Changes were refused during the run: whoever started the server must see it failed.
    console.error(`agent-console-mock: ${(error as Error).message}`)
    process.exit(1)
  }
  process.exit(0)
}

registerVerifyCommand(program)
registerProxyCommand(program)
registerImportCommand(program)
program.helpCommand(true) // `help [command]`, though the program itself has an action

const mistyped = unknownCommand(process.argv[2])
if (mistyped) {
  console.error(`agent-console-mock: ${mistyped}`)
  process.exit(1)
}

/**
 * Why the first word is no command, if it is not: the server takes no arguments, so a first word that is not
 * an option is a command, and commander alone would say only "too many arguments" (or name an option of the
 * mistyped command as unknown).
 */
function unknownCommand(first: string | undefined): string | undefined {
  if (first === undefined || first.startsWith('-')) return undefined
  const names = [...program.commands.map((command) => command.name()), 'help']
  if (names.includes(first)) return undefined
  const near = names.find((name) => distance(name, first) <= 2)
  return (
    `unknown command '${first}'${near ? ` (did you mean ${near}?)` : ''}; ` +
    `the commands are ${names.join(', ')}, and the server's options start with - (see --help).`
  )
}

program.parseAsync().catch((error: unknown) => {
  // A mistake in a command's command line: commander printed it, and the command chose the exit code.
  if (error instanceof CommandLineEnded) process.exit(process.exitCode)
  console.error(`agent-console-mock: ${(error as Error).message}`)
  process.exit(1)
})
