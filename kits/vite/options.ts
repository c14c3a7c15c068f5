import { inspect } from 'node:util'
import { httpUrl } from '../../core/http-url.js'
import { BUILTIN_SCENARIOS } from '../../core/scenarios/builtin.js'
import { ScenarioRegistry } from '../../core/scenarios/index.js'
import { checkDelay, checkJwtSecret } from '../../core/settings.js'
import { checkWorldOptions } from '../../factories/world.js'
import { resolveProfile } from '../../model/profile.js'
import type { MockOptions } from '../../core/instance/handle.js'

/**
 * What `startMockWorker` takes, as JSON: the options reach the page as text in the start module, so
 * anything that is code (custom `scenarios`) cannot be given here.
 */
export interface MockPluginOptions extends Omit<MockOptions, 'scenarios' | 'openapi'> {
  /**
   * A team's own OpenAPI document to serve beside the mock's operations (docs/openapi.md): a file's path
   * (relative to Vite's `root`), an `http(s)` URL (a running FastAPI app's `/openapi.json`), or the parsed
   * JSON. A file or URL is read once, as the dev server starts (a restart reads it again); one that cannot
   * be read, or is no OpenAPI 3.0 or 3.1 document, stops the start saying why.
   */
  openapi?: string | URL | object
  /**
   * A running standalone server (`npx agent-console-mock`) to send `/v1` and `/__mock` to, through Vite's
   * `server.proxy`, instead of starting the worker in the page. E.g. `'http://127.0.0.1:4010'`.
   */
  mockServer?: string
  /** Milliseconds added before every API answer (worker). @default 0 */
  delayMs?: number
  /**
   * Keep the world across page reloads in `localStorage` (worker; see `startMockWorker`): `true` keeps it under a
   * key made from the seed, a non-empty string is the key itself (so `'yes'` is a key too). @default false
   */
  persist?: boolean | string
  /** Don't log "Mocking enabled" and the mocked requests (worker). @default true */
  quiet?: boolean
}

/** Every option the plugin takes: a key not among them is a mistake (a `.js` config has no type check). */
const PLUGIN_OPTIONS = [
  'seed',
  'personasPerTeam',
  'profile',
  'jwtSecret',
  'scenario',
  'openapi',
  'mockServer',
  'delayMs',
  'persist',
  'quiet',
] as const satisfies ReadonlyArray<keyof MockPluginOptions>

/** Fails the type check when an option is added to {@link MockPluginOptions} but not to the list above. */
type Unlisted = Exclude<keyof MockPluginOptions, (typeof PLUGIN_OPTIONS)[number]>
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true

/**
 * The plugin's options, checked as the dev server starts, with the checks the page would make: a mistake stops
 * `vite` with a sentence saying which, where the page would only fail in the browser's console and never load.
 * @throws Error naming the option and what it takes
 */
export function checkPluginOptions(options: MockPluginOptions): void {
  void everyOptionListed
  const problem = firstProblem(options)
  if (problem) throw pluginOptionError(problem)
}

/**
 * A refusal of the plugin's options: one sentence naming the plugin, with no stack. Vite prints the error that stops
 * its start with the stack (Vite 5 and 6 print `error.stack`, later ones `util.inspect(error)`, which adds the
 * cause's stack too), and lines inside Vite's config loading tell nobody what to change. The cause stays on the
 * error for code that reads it.
 */
export function pluginOptionError(problem: string, cause?: unknown): Error {
  const error = new Error(`agent-console-mock/vite: ${problem}`, cause === undefined ? undefined : { cause })
  error.stack = error.message
  Object.defineProperty(error, inspect.custom, { value: () => error.message })
  return error
}

function firstProblem(options: MockPluginOptions): string | undefined {
  const unknown = Object.keys(options).filter((key) => !(PLUGIN_OPTIONS as readonly string[]).includes(key))
  if (unknown.includes('scenarios'))
    return 'scenarios of your own are code, which the plugin cannot hand to the page: start the worker in the app with startMockWorker({ scenarios }) instead.'
  if (unknown.length > 0)
    return `unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the options are ${PLUGIN_OPTIONS.join(', ')}.`
  if (options.mockServer !== undefined) return mockServerProblem(options)
  return pageOptionProblem(options)
}

/**
 * The options the page's worker reads, each with the standalone server's flag that does its job: with `mockServer`
 * the page starts no worker, so they would be dropped without a word.
 */
const SERVER_FLAG_OF = {
  seed: '--seed',
  personasPerTeam: '--personas',
  profile: '--profile <file>',
  jwtSecret: 'the AGENT_CONSOLE_MOCK_JWT_SECRET environment variable',
  scenario: '--scenario',
  openapi: '--openapi',
  delayMs: '--delay',
  persist: '--state-file',
  quiet: '--quiet',
} as const satisfies Record<Exclude<(typeof PLUGIN_OPTIONS)[number], 'mockServer'>, string>

function mockServerProblem(options: MockPluginOptions): string | undefined {
  if (!httpUrl(options.mockServer))
    return `mockServer must be the standalone server's http(s) URL, such as http://127.0.0.1:4010, got ${JSON.stringify(options.mockServer)}.`
  const inPage = Object.entries(SERVER_FLAG_OF).filter(
    ([name]) => options[name as keyof MockPluginOptions] !== undefined,
  )
  if (inPage.length === 0) return undefined
  const names = inPage.map(([name]) => name).join(', ')
  const flags = inPage.map(([name, flag]) => `${name}: ${flag}`).join('; ')
  return (
    `${names} ${inPage.length > 1 ? 'have' : 'has'} no effect with mockServer, since the page starts no worker and the ` +
    `standalone server keeps its own world: give the server's command line the same (${flags}), or leave mockServer ` +
    'out to run the mock in the page.'
  )
}

/** The first option the page's `startMockWorker` would refuse (or silently misread), as a sentence. */
function pageOptionProblem(options: MockPluginOptions): string | undefined {
  const { delayMs, jwtSecret, persist, quiet } = options
  if (persist !== undefined && typeof persist !== 'boolean' && (typeof persist !== 'string' || persist === ''))
    return `persist must be true, false or the localStorage key to keep the world under (a non-empty string), got ${JSON.stringify(persist)}.`
  if (quiet !== undefined && typeof quiet !== 'boolean')
    return `quiet must be true or false, got ${JSON.stringify(quiet)}.`
  try {
    checkWorldOptions(options)
    resolveProfile(options.profile)
    new ScenarioRegistry(BUILTIN_SCENARIOS).resolve(options.scenario)
    if (delayMs !== undefined) checkDelay(delayMs)
    if (jwtSecret !== undefined) checkJwtSecret(jwtSecret)
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}
