import { createServer, type Server } from 'node:http'
import type { WorldOptions } from '../factories/world.js'
import { createMockAppWith, type MockApp } from './app.js'
import type { ServerOptions } from './options.js'
import { StatePersistence } from './persistence/index.js'
import { durableAnswers } from './persistence/answers.js'
import { closeServer, serverUrl } from './http-server.js'
import { resolveServerSettings, type ServerSettings } from './settings.js'
import { answerUncarriedMethods } from './uncarried-methods.js'

export type { ServerOptions } from './options.js'
export { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'

export interface RunningServer extends MockApp {
  server: Server
  /** The base URL the server answers on, e.g. `http://127.0.0.1:4010`. */
  url: string
  persistence?: StatePersistence
  /** The `X-Mock-Control-Token` the control API demands (a server bound beyond loopback), if any. */
  controlToken?: string
  /**
   * Set when the state file held a world of another seed or size than the configured ones (`--seed`,
   * `--personas`): the state file's world is served, and a reset returns to the configured ones.
   */
  stateFileConflict?: string
  /**
   * Stops accepting requests, closes connections, writes the state file a last time.
   * @throws Error when changes could not be written to the state file during the run (they were refused)
   */
  close(): Promise<void>
}

/**
 * Starts the standalone mock server.
 * @example const running = await startServer({ port: 0, seed: 7 }); await running.close()
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  return startServerWith(resolveServerSettings(options))
}

/** Starts the server for settings resolved already, taken as they are (the CLI resolves its own). */
export async function startServerWith(settings: ServerSettings): Promise<RunningServer> {
  const mock = await createMockAppWith(settings)
  const kept = settings.stateFile ? await keepStateFile(settings.stateFile, mock, settings) : undefined
  const persistence = kept?.persistence
  const server = await listen(mock, settings.port, settings.host).catch(async (error) => {
    await persistence?.close().catch(() => undefined)
    throw error
  })
  return {
    ...mock,
    server,
    url: serverUrl(server),
    persistence,
    controlToken: settings.core.controlGuard.token,
    stateFileConflict: kept?.conflict,
    async close() {
      await closeServer(server)
      await persistence?.close()
    },
  }
}

/**
 * Keeps the default world in `stateFile`: loaded now if there is one yet, and no answer goes out
 * before the changes it shows are on disk. `conflict` says (and logs) when the loaded world is not
 * the configured one.
 */
async function keepStateFile(stateFile: string, mock: MockApp, { world, logger }: ServerSettings) {
  const persistence = new StatePersistence(stateFile, mock.sessions.primary, (message, error) =>
    logger.error(message, error),
  )
  const { primary } = mock.sessions
  const conflict = (await persistence.load())
    ? conflictOf(stateFile, { ...primary.worldOptions, imported: primary.imported }, world)
    : undefined
  if (conflict) logger.info?.(`agent-console-mock: ${conflict}`)
  mock.beforeSend.push(durableAnswers(persistence))
  return { persistence, conflict }
}

/**
 * What a start says when the loaded state file holds a world of another seed or size than the
 * configured ones, which it wins over; undefined when they agree.
 */
function conflictOf(
  stateFile: string,
  loaded: Required<WorldOptions> & { imported: boolean },
  configured: Required<WorldOptions>,
): string | undefined {
  const overridden = [
    ...(loaded.seed === configured.seed ? [] : [`--seed ${configured.seed}`]),
    ...(loaded.personasPerTeam === configured.personasPerTeam ? [] : [`--personas ${configured.personasPerTeam}`]),
  ]
  if (overridden.length === 0) return undefined
  // An imported world's seed and size were never the world's: what it holds came from a server.
  const held = loaded.imported
    ? 'a world imported from a server (agent-console-mock import)'
    : `a world of seed ${loaded.seed} with ${loaded.personasPerTeam} personas per team`
  return (
    `${stateFile} holds ${held}, served instead of the configured ${overridden.join(' ')}; ` +
    `POST /__mock/reset starts over with seed ${configured.seed} and ${configured.personasPerTeam} personas per team`
  )
}

function listen({ app }: MockApp, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    // The head uvicorn takes at most; a request without `Host` goes on to the refusal h11 gives it.
    const server = createServer({ maxHeaderSize: 256 * 1024, requireHostHeader: false })
    answerUncarriedMethods(server, app) // hands the app every request uvicorn would
    server.listen(port, host)
    server.once('listening', () => resolve(server))
    server.once('error', (error) => reject(listenError(error, port, host)))
  })
}

/** What to do about the errors a developer meets at start (a port taken, or one below 1024); others as they are. */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const where = `port ${port} on ${host}`
  const advice = 'choose another port (`port`, --port or PORT; 0 takes any free one)'
  if (error.code === 'EADDRINUSE')
    return new Error(`${where} is in use (EADDRINUSE): stop what listens there, or ${advice}.`, { cause: error })
  if (error.code === 'EACCES')
    return new Error(`${where} needs privileges this process lacks (EACCES): ${advice}.`, { cause: error })
  if (error.code === 'EADDRNOTAVAIL')
    return new Error(`${host} is no address of this machine (EADDRNOTAVAIL): pass another --host.`, { cause: error })
  return error
}
